import { step, type TemplateTexts } from './step.js';

export const nl: TemplateTexts = {
  photo: {
    name: 'Rondgang om het voertuig in acht hoeken',
    steps: {
      front: step('Voorkant', 'Ga 3 m voor de auto staan en breng de hele voorkant in beeld.'),
      front_right: step('Rechtsvoor', 'Ga schuin (45°) bij de hoek rechtsvoor staan.'),
      right: step('Rechterkant', 'Ga 3 m naast de rechterkant staan en breng de hele zijkant in beeld.'),
      rear_right: step('Rechtsachter', 'Ga schuin (45°) bij de hoek rechtsachter staan.'),
      rear: step('Achterkant', 'Ga 3 m achter de auto staan en breng de hele achterkant in beeld.'),
      rear_left: step('Linksachter', 'Ga schuin (45°) bij de hoek linksachter staan.'),
      left: step('Linkerkant', 'Ga 3 m naast de linkerkant staan en breng de hele zijkant in beeld.'),
      front_left: step('Linksvoor', 'Ga schuin (45°) bij de hoek linksvoor staan.'),
      odometer: step(
        'Kilometerteller',
        'Zet het contact aan en fotografeer de kilometerstand, scherp en leesbaar.',
      ),
      vin: step(
        'Chassisnummer (VIN)',
        'Fotografeer het chassisnummer (onderaan de voorruit of op de deurstijl), scherp en leesbaar.',
      ),
      plate: step('Kenteken', 'Fotografeer de achterste kentekenplaat recht van voren, scherp en leesbaar.'),
    },
  },
  video: {
    name: 'Video-rondgang',
    step: step(
      'Video van de rondgang',
      'Begin aan de voorkant, loop op ongeveer 2 m langzaam helemaal om de auto heen en film daarna de kilometerteller en het chassisnummer.',
    ),
  },
};
