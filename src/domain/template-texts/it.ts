import { step, type TemplateTexts } from './step.js';

export const it: TemplateTexts = {
  photo: {
    name: 'Giro del veicolo in otto angolazioni',
    steps: {
      front: step('Anteriore', 'Mettiti a 3 m davanti all’auto e inquadra tutta la parte anteriore.'),
      front_right: step('Anteriore destro', 'Mettiti all’angolo anteriore destro, a 45°.'),
      right: step('Lato destro', 'Mettiti a 3 m dal lato destro e inquadra tutto il lato.'),
      rear_right: step('Posteriore destro', 'Mettiti all’angolo posteriore destro, a 45°.'),
      rear: step('Posteriore', 'Mettiti a 3 m dietro l’auto e inquadra tutta la parte posteriore.'),
      rear_left: step('Posteriore sinistro', 'Mettiti all’angolo posteriore sinistro, a 45°.'),
      left: step('Lato sinistro', 'Mettiti a 3 m dal lato sinistro e inquadra tutto il lato.'),
      front_left: step('Anteriore sinistro', 'Mettiti all’angolo anteriore sinistro, a 45°.'),
      odometer: step(
        'Contachilometri',
        'Accendi il quadro e fotografa i chilometri, in modo nitido e leggibile.',
      ),
      vin: step(
        'Numero di telaio (VIN)',
        'Fotografa il numero di telaio (alla base del parabrezza o sul montante della portiera), nitido e leggibile.',
      ),
      plate: step('Targa', 'Fotografa la targa posteriore di fronte, nitida e leggibile.'),
    },
  },
  video: {
    name: 'Giro del veicolo in video',
    step: step(
      'Video del giro del veicolo',
      'Parti dalla parte anteriore, gira lentamente intorno a tutta l’auto a circa 2 m, poi filma il contachilometri e il numero di telaio.',
    ),
  },
};
