// The words of the built-in persona templates (docs/api.md#personas) in every supported language: what
// the customer reads in the capture app. Step ids and overlays are the same in every language; only the
// name, labels and instructions change.
import type { PersonaLanguage } from './personas.js';
import { ar } from './template-texts/ar.js';
import { hi } from './template-texts/hi.js';
import { it } from './template-texts/it.js';
import { ja } from './template-texts/ja.js';
import { nl } from './template-texts/nl.js';
import { pl } from './template-texts/pl.js';
import { pt } from './template-texts/pt.js';
import { tr } from './template-texts/tr.js';
import { step, type StepTexts, type TemplateTexts } from './template-texts/step.js';

export type { StepTexts };

const en: TemplateTexts = {
  photo: {
    name: 'Eight-angle walk-around',
    steps: {
      front: step('Front', 'Stand 3 m in front of the car; fit the whole front in the frame.'),
      front_right: step('Front right', 'Stand at the front right corner, at 45°.'),
      right: step('Right side', 'Stand 3 m from the right side; fit the whole side in the frame.'),
      rear_right: step('Rear right', 'Stand at the rear right corner, at 45°.'),
      rear: step('Rear', 'Stand 3 m behind the car; fit the whole rear in the frame.'),
      rear_left: step('Rear left', 'Stand at the rear left corner, at 45°.'),
      left: step('Left side', 'Stand 3 m from the left side; fit the whole side in the frame.'),
      front_left: step('Front left', 'Stand at the front left corner, at 45°.'),
      odometer: step('Odometer', 'Switch the ignition on and photograph the mileage, sharp and readable.'),
      vin: step('VIN', 'Photograph the chassis number (windscreen base or door pillar), sharp and readable.'),
      plate: step('Number plate', 'Photograph the rear number plate straight on, sharp and readable.'),
    },
  },
  video: {
    name: 'Video walk-around',
    step: step(
      'Walk-around video',
      'Start at the front, walk slowly around the whole car at about 2 m, then film the odometer and the VIN.',
    ),
  },
};

const fr: TemplateTexts = {
  photo: {
    name: 'Tour du véhicule en huit angles',
    steps: {
      front: step('Avant', 'Placez-vous à 3 m devant la voiture et cadrez tout l’avant.'),
      front_right: step('Avant droit', 'Placez-vous à l’angle avant droit, à 45°.'),
      right: step('Côté droit', 'Placez-vous à 3 m du côté droit et cadrez tout le côté.'),
      rear_right: step('Arrière droit', 'Placez-vous à l’angle arrière droit, à 45°.'),
      rear: step('Arrière', 'Placez-vous à 3 m derrière la voiture et cadrez tout l’arrière.'),
      rear_left: step('Arrière gauche', 'Placez-vous à l’angle arrière gauche, à 45°.'),
      left: step('Côté gauche', 'Placez-vous à 3 m du côté gauche et cadrez tout le côté.'),
      front_left: step('Avant gauche', 'Placez-vous à l’angle avant gauche, à 45°.'),
      odometer: step(
        'Compteur kilométrique',
        'Mettez le contact et photographiez le kilométrage, net et lisible.',
      ),
      vin: step(
        'Numéro VIN',
        'Photographiez le numéro de châssis (bas du pare-brise ou montant de porte), net et lisible.',
      ),
      plate: step(
        'Plaque d’immatriculation',
        'Photographiez la plaque d’immatriculation arrière bien en face, nette et lisible.',
      ),
    },
  },
  video: {
    name: 'Tour du véhicule en vidéo',
    step: step(
      'Vidéo du tour du véhicule',
      'Commencez par l’avant, faites lentement le tour complet de la voiture à environ 2 m, puis filmez le compteur kilométrique et le numéro VIN.',
    ),
  },
};

const de: TemplateTexts = {
  photo: {
    name: 'Fahrzeugrundgang in acht Ansichten',
    steps: {
      front: step('Front', 'Stellen Sie sich 3 m vor das Auto und nehmen Sie die ganze Front ins Bild.'),
      front_right: step('Vorne rechts', 'Stellen Sie sich schräg (45°) an die vordere rechte Ecke.'),
      right: step(
        'Rechte Seite',
        'Stellen Sie sich 3 m neben die rechte Seite und nehmen Sie die ganze Seite ins Bild.',
      ),
      rear_right: step('Hinten rechts', 'Stellen Sie sich schräg (45°) an die hintere rechte Ecke.'),
      rear: step('Heck', 'Stellen Sie sich 3 m hinter das Auto und nehmen Sie das ganze Heck ins Bild.'),
      rear_left: step('Hinten links', 'Stellen Sie sich schräg (45°) an die hintere linke Ecke.'),
      left: step(
        'Linke Seite',
        'Stellen Sie sich 3 m neben die linke Seite und nehmen Sie die ganze Seite ins Bild.',
      ),
      front_left: step('Vorne links', 'Stellen Sie sich schräg (45°) an die vordere linke Ecke.'),
      odometer: step(
        'Kilometerstand',
        'Schalten Sie die Zündung ein und fotografieren Sie den Kilometerstand scharf und lesbar.',
      ),
      vin: step(
        'Fahrgestellnummer (FIN)',
        'Fotografieren Sie die Fahrgestellnummer (unten an der Windschutzscheibe oder an der Türsäule) scharf und lesbar.',
      ),
      plate: step(
        'Kennzeichen',
        'Fotografieren Sie das hintere Kennzeichen gerade von vorn, scharf und lesbar.',
      ),
    },
  },
  video: {
    name: 'Video-Rundgang',
    step: step(
      'Rundgang-Video',
      'Beginnen Sie vorne, gehen Sie mit etwa 2 m Abstand langsam einmal um das ganze Auto und filmen Sie dann den Kilometerstand und die Fahrgestellnummer.',
    ),
  },
};

const es: TemplateTexts = {
  photo: {
    name: 'Recorrido del vehículo en ocho ángulos',
    steps: {
      front: step('Delantera', 'Colóquese a 3 m delante del coche y encuadre toda la parte delantera.'),
      front_right: step('Delantera derecha', 'Colóquese en la esquina delantera derecha, a 45°.'),
      right: step('Lateral derecho', 'Colóquese a 3 m del lateral derecho y encuadre todo el lateral.'),
      rear_right: step('Trasera derecha', 'Colóquese en la esquina trasera derecha, a 45°.'),
      rear: step('Trasera', 'Colóquese a 3 m detrás del coche y encuadre toda la parte trasera.'),
      rear_left: step('Trasera izquierda', 'Colóquese en la esquina trasera izquierda, a 45°.'),
      left: step('Lateral izquierdo', 'Colóquese a 3 m del lateral izquierdo y encuadre todo el lateral.'),
      front_left: step('Delantera izquierda', 'Colóquese en la esquina delantera izquierda, a 45°.'),
      odometer: step('Cuentakilómetros', 'Dé el contacto y fotografíe el kilometraje, nítido y legible.'),
      vin: step(
        'Número de bastidor (VIN)',
        'Fotografíe el número de bastidor (base del parabrisas o pilar de la puerta), nítido y legible.',
      ),
      plate: step('Matrícula', 'Fotografíe la matrícula trasera de frente, nítida y legible.'),
    },
  },
  video: {
    name: 'Recorrido del vehículo en vídeo',
    step: step(
      'Vídeo del recorrido',
      'Empiece por la parte delantera, rodee despacio todo el coche a unos 2 m y después grabe el cuentakilómetros y el número de bastidor.',
    ),
  },
};

// The languages added later are one file each (./template-texts/).
export const TEMPLATE_TEXTS: Record<PersonaLanguage, TemplateTexts> = {
  en,
  fr,
  de,
  es,
  it,
  pt,
  nl,
  pl,
  tr,
  ar,
  hi,
  ja,
};
