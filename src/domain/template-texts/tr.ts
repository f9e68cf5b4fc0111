import { step, type TemplateTexts } from './step.js';

export const tr: TemplateTexts = {
  photo: {
    name: 'Sekiz açıdan araç turu',
    steps: {
      front: step('Ön', 'Aracın 3 m önünde durun; ön tarafın tamamını kadraja alın.'),
      front_right: step('Sağ ön', 'Sağ ön köşede, 45° açıyla durun.'),
      right: step('Sağ yan', 'Sağ yanın 3 m uzağında durun; yanın tamamını kadraja alın.'),
      rear_right: step('Sağ arka', 'Sağ arka köşede, 45° açıyla durun.'),
      rear: step('Arka', 'Aracın 3 m arkasında durun; arka tarafın tamamını kadraja alın.'),
      rear_left: step('Sol arka', 'Sol arka köşede, 45° açıyla durun.'),
      left: step('Sol yan', 'Sol yanın 3 m uzağında durun; yanın tamamını kadraja alın.'),
      front_left: step('Sol ön', 'Sol ön köşede, 45° açıyla durun.'),
      odometer: step(
        'Kilometre sayacı',
        'Kontağı açın ve kilometreyi net ve okunaklı şekilde fotoğraflayın.',
      ),
      vin: step(
        'Şasi numarası (VIN)',
        'Şasi numarasını (ön camın alt kısmında veya kapı direğinde) net ve okunaklı şekilde fotoğraflayın.',
      ),
      plate: step('Plaka', 'Arka plakayı tam karşıdan, net ve okunaklı şekilde fotoğraflayın.'),
    },
  },
  video: {
    name: 'Videolu araç turu',
    step: step(
      'Araç turu videosu',
      'Önden başlayın, yaklaşık 2 m mesafeden aracın çevresinde yavaşça bir tur atın, ardından kilometre sayacını ve şasi numarasını çekin.',
    ),
  },
};
