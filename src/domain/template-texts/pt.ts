import { step, type TemplateTexts } from './step.js';

export const pt: TemplateTexts = {
  photo: {
    name: 'Volta ao veículo em oito ângulos',
    steps: {
      front: step('Frente', 'Fique a 3 m à frente do carro e enquadre toda a frente.'),
      front_right: step('Frente direita', 'Fique no canto dianteiro direito, a 45°.'),
      right: step('Lado direito', 'Fique a 3 m do lado direito e enquadre todo o lado.'),
      rear_right: step('Traseira direita', 'Fique no canto traseiro direito, a 45°.'),
      rear: step('Traseira', 'Fique a 3 m atrás do carro e enquadre toda a traseira.'),
      rear_left: step('Traseira esquerda', 'Fique no canto traseiro esquerdo, a 45°.'),
      left: step('Lado esquerdo', 'Fique a 3 m do lado esquerdo e enquadre todo o lado.'),
      front_left: step('Frente esquerda', 'Fique no canto dianteiro esquerdo, a 45°.'),
      odometer: step('Conta-quilómetros', 'Ligue a ignição e fotografe a quilometragem, nítida e legível.'),
      vin: step(
        'Número de chassis (VIN)',
        'Fotografe o número de chassis (base do para-brisas ou pilar da porta), nítido e legível.',
      ),
      plate: step('Matrícula', 'Fotografe a matrícula traseira de frente, nítida e legível.'),
    },
  },
  video: {
    name: 'Volta ao veículo em vídeo',
    step: step(
      'Vídeo da volta ao veículo',
      'Comece pela frente, dê uma volta lenta a todo o carro a cerca de 2 m e depois filme o conta-quilómetros e o número de chassis.',
    ),
  },
};
