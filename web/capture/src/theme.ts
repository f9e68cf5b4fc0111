// The persona's brand colour on buttons and bars, with the text colour (black or white) that reads best
// on it, so any colour a client picks keeps WCAG AA contrast.

const DEFAULT_BRAND = '#0a5cd6';

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

export function applyBrand(colour: string | undefined): void {
  const brand = colour && /^#[0-9a-fA-F]{6}$/.test(colour) ? colour : DEFAULT_BRAND;
  const l = luminance(brand);
  const onBrand = contrast(l, 1) >= contrast(l, 0) ? '#ffffff' : '#000000';
  // As a colour of text on the white page, a light brand colour is too faint: darken it to the default.
  const brandText = contrast(l, 1) >= 4.5 ? brand : DEFAULT_BRAND;
  const root = document.documentElement.style;
  root.setProperty('--brand', brand);
  root.setProperty('--on-brand', onBrand);
  root.setProperty('--brand-text', brandText);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', brand);
}
