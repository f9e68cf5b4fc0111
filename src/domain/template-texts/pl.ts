import { step, type TemplateTexts } from './step.js';

export const pl: TemplateTexts = {
  photo: {
    name: 'Obejście pojazdu w ośmiu ujęciach',
    steps: {
      front: step('Przód', 'Stań 3 m przed samochodem i uchwyć w kadrze cały przód.'),
      front_right: step('Przód z prawej', 'Stań przy prawym przednim narożniku, pod kątem 45°.'),
      right: step('Prawy bok', 'Stań 3 m od prawego boku i uchwyć w kadrze cały bok.'),
      rear_right: step('Tył z prawej', 'Stań przy prawym tylnym narożniku, pod kątem 45°.'),
      rear: step('Tył', 'Stań 3 m za samochodem i uchwyć w kadrze cały tył.'),
      rear_left: step('Tył z lewej', 'Stań przy lewym tylnym narożniku, pod kątem 45°.'),
      left: step('Lewy bok', 'Stań 3 m od lewego boku i uchwyć w kadrze cały bok.'),
      front_left: step('Przód z lewej', 'Stań przy lewym przednim narożniku, pod kątem 45°.'),
      odometer: step('Licznik przebiegu', 'Włącz zapłon i sfotografuj przebieg, ostro i czytelnie.'),
      vin: step(
        'Numer VIN',
        'Sfotografuj numer nadwozia (u podstawy przedniej szyby lub na słupku drzwi), ostro i czytelnie.',
      ),
      plate: step(
        'Tablica rejestracyjna',
        'Sfotografuj tylną tablicę rejestracyjną na wprost, ostro i czytelnie.',
      ),
    },
  },
  video: {
    name: 'Obejście pojazdu na filmie',
    step: step(
      'Film z obejścia pojazdu',
      'Zacznij od przodu, obejdź powoli cały samochód w odległości około 2 m, a potem sfilmuj licznik przebiegu i numer VIN.',
    ),
  },
};
