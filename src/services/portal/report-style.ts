// What every part of the PDF report (./report.ts) draws with: the page margin, the colours of each kind
// of box, and values written as a reader writes them.

export const MARGIN = 40;

export const COLOURS = {
  vehicle: '#1d6fd8',
  damage: '#c62828',
  plate: '#8a6508',
  vin: '#0b6e70',
  odometer: '#6a1fb0',
  text: '#222222',
  muted: '#666666',
  rule: '#cccccc',
  good: '#1b5e20',
  bad: '#b71c1c',
};

/** A part id as words: `rear_door_left` → `rear door left`. */
export const partWords = (part: string) => part.replaceAll('_', ' ');

/** An odometer reading as a person writes it: `45 218 km`. */
export function odometerText(odometer: {
  read: number | null;
  unit: 'km' | 'mi' | null;
}): string | undefined {
  if (odometer.read === null) return undefined;
  const grouped = String(odometer.read).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return odometer.unit ? `${grouped} ${odometer.unit}` : grouped;
}

/** An ISO time as a reader writes it: `2026-11-23 09:42 UTC`. */
export const human = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
