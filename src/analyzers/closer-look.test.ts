// Where the lines look like the pieces of one VIN, and the closer look's lines brought back.
import { describe, expect, it } from 'vitest';
import {
  alongBand,
  closerLook,
  endsTrimmed,
  fromBand,
  fromCloserLook,
  slantedVinBand,
  vinPiecesRegion,
} from './closer-look.js';
import type { ReadLine } from './text-lines.js';

const line = (text: string, x: number, y: number, width: number, height: number): ReadLine => ({
  text,
  confidence: 0.95,
  box: { x, y, width, height },
});

describe('vinPiecesRegion', () => {
  it('finds two pieces running down a slanted line, 15 to 20 characters together', () => {
    // A windshield VIN split in two, its 7 read in both pieces (tuning photo vin-windshield-10).
    const lines = [
      line('KNAZWT', 0.214, 0.291, 0.106, 0.105),
      line('7R2778351550', 0.305, 0.364, 0.301, 0.283),
    ];
    const region = vinPiecesRegion(lines, 4 / 3)!;
    expect(region.x).toBeLessThan(0.214);
    expect(region.y).toBeLessThan(0.291);
    expect(region.x + region.width).toBeGreaterThan(0.606);
    expect(region.y + region.height).toBeGreaterThan(0.647);
  });

  it('finds a line of 15 or 16 characters: a VIN whose box cut off an end', () => {
    // LSVLHE3P81W373908 read without its L (tuning photo vin-windshield-32).
    const region = vinPiecesRegion([line('SVLHE3P81W373908', 0.3, 0.4, 0.3, 0.1)], 4 / 3)!;
    expect(region.x).toBeLessThan(0.3 - 0.03);
    expect(region.x + region.width).toBeGreaterThan(0.6 + 0.03);
    expect(vinPiecesRegion([line('SVLHE3P81W37', 0.3, 0.4, 0.3, 0.1)], 4 / 3)).toBeUndefined();
  });

  it('finds pieces with a stray point at an end', () => {
    // KMHW1VEM97H235830 (exploration photo vin-windshield-304).
    const lines = [
      line('KMHW1VEM97H2.', 0.413, 0.568, 0.293, 0.058),
      line('5830', 0.724, 0.56, 0.097, 0.026),
    ];
    expect(vinPiecesRegion(lines, 4 / 3)).toBeDefined();
  });

  it('finds none for a whole VIN, a plate, words, or pieces far apart', () => {
    const aspect = 4 / 3;
    expect(vinPiecesRegion([line('1M8GDM9AXKP042788', 0.1, 0.1, 0.5, 0.05)], aspect)).toBeUndefined();
    expect(vinPiecesRegion([line('AB-123-CD', 0.4, 0.6, 0.1, 0.04)], aspect)).toBeUndefined();
    const words = [
      line('MADE IN GERMANY', 0.1, 0.1, 0.3, 0.04),
      line('BY VOLKSWAGEN AG', 0.42, 0.1, 0.3, 0.04),
    ];
    expect(vinPiecesRegion(words, aspect)).toBeUndefined();
    const apart = [line('KNAZW7R2', 0.05, 0.1, 0.1, 0.04), line('778351550', 0.7, 0.8, 0.12, 0.04)];
    expect(vinPiecesRegion(apart, aspect)).toBeUndefined();
  });
});

describe('closerLook', () => {
  it('cuts the region out twice as large, and brings its lines back to the whole image', () => {
    const image = { width: 100, height: 50, data: new Uint8Array(100 * 50 * 3).fill(128) };
    const region = { x: 0.2, y: 0.2, width: 0.5, height: 0.4 };
    expect(closerLook(image, region)).toMatchObject({ width: 100, height: 40 });
    const back = fromCloserLook(line('KNAZW7R2778351550', 0.5, 0.5, 0.5, 0.25), region);
    expect(back.box).toEqual({ x: 0.45, y: 0.4, width: 0.25, height: 0.1 });
    expect(back.vinOnly).toBe(true);
  });
});

describe('slantedVinBand', () => {
  const [width, height] = [1024, 768];
  // What the detector found of VF16P2W428K388018 on a windshield plate seen steeply (tuning photo
  // vin-windshield-13): three pieces, 8 characters together, down a slant of about 27°.
  const pieces = [
    line('K3', 0.6297, 0.5855, 0.0408, 0.0386),
    line('88801', 0.6531, 0.5974, 0.1098, 0.0939),
    line('8', 0.7458, 0.6619, 0.034, 0.0391),
  ];

  it('lays a band along the pieces, reaching past them as far as the missing characters may lie', () => {
    const band = slantedVinBand(pieces, width, height)!;
    expect(band.slope).toBeCloseTo(0.51, 1);
    // 8 characters over about 153 px, 19 px each: 9 more, and 4 to spare, on either side (a steep view
    // makes the far characters wider apart than the pieces' own).
    expect(band.left).toBeLessThan(0.6297 * width - 13 * 19);
    expect(band.right).toBeGreaterThan((0.7458 + 0.034) * width + 13 * 19);
    // As high as a character about twice: the box of `8` alone is 30 px high.
    expect(band.half).toBeGreaterThan(20);
    expect(band.half).toBeLessThan(40);
  });

  it("lays a band along one piece alone by its own box's slope", () => {
    // `1DF` alone of 4T1DFPK89EP997635, its box sloping 20° (tuning photo vin-windshield-31).
    const alone = { ...line('1DF', 0.4724, 0.4762, 0.0509, 0.0313), angle: 20 };
    const band = slantedVinBand([alone], width, height)!;
    expect(band.slope).toBeCloseTo(Math.tan((20 * Math.PI) / 180));
    expect(band.left).toBeLessThan(0.4724 * width - 14 * 10);
    // Too short, or level: no band.
    expect(slantedVinBand([{ ...alone, text: 'DF' }], width, height)).toBeUndefined();
    expect(slantedVinBand([{ ...alone, angle: 4 }], width, height)).toBeUndefined();
  });

  it('lays a band along a long piece alone however level it lies: the rest of a VIN the detector missed', () => {
    // `5NPMMR2E1B622` of 5NPMMR2E1B6222034, sloping 4° (exploration photo vin-windshield-268).
    const long = { ...line('5NPMMR2E1B622', 0.255, 0.41, 0.226, 0.048), angle: 4.1 };
    const band = slantedVinBand([long], width, height)!;
    expect(band.right).toBeGreaterThan((0.255 + 0.226) * width + 4 * 17);
    // A plate's run of letters and digits is shorter.
    expect(slantedVinBand([{ ...long, text: 'AB123CD' }], width, height)).toBeUndefined();
  });

  it('lays a band as high as the middle one of three pieces, one of them boxed tightly', () => {
    // `3` boxed alone and small, `VWDNL`, `B9` of 3VWDNLB95YV340759 (exploration photo vin-windshield-306).
    const run = [
      line('3', 0.392, 0.523, 0.018, 0.013),
      line('VWDNL', 0.404, 0.458, 0.131, 0.077),
      line('B9', 0.54, 0.436, 0.04, 0.037),
    ];
    expect(slantedVinBand(run, width, height)!.half).toBeGreaterThan(18);
  });

  it('lays a band along the first piece alone when the run it starts is too short', () => {
    // `ZFA` and a `6` after it, of ZFA6X0XR1HN811774 (exploration photo vin-windshield-254).
    const run = [
      { ...line('ZFA', 0.341, 0.635, 0.1, 0.058), angle: -14.4 },
      { ...line('6', 0.441, 0.626, 0.032, 0.029), angle: -18.4 },
    ];
    const band = slantedVinBand(run, width, height)!;
    expect(band.slope).toBeCloseTo(Math.tan((-14.4 * Math.PI) / 180));
  });

  it('lays none along level pieces, a single piece without its slope, or pieces of a whole VIN', () => {
    const level = [line('KNAZW7', 0.2, 0.5, 0.1, 0.04), line('R277835', 0.32, 0.5, 0.12, 0.04)];
    expect(slantedVinBand(level, width, height)).toBeUndefined();
    expect(slantedVinBand([pieces[1]!], width, height)).toBeUndefined();
    const whole = [line('VF16P2W428', 0.4, 0.4, 0.2, 0.12), line('K388018', 0.62, 0.53, 0.14, 0.1)];
    expect(slantedVinBand(whole, width, height)).toBeUndefined();
  });
});

describe('alongBand', () => {
  it('cuts the band out sheared level, and brings a line read on it back around its corners', () => {
    // A bright line 4 px thick, its middle on y = 20 + 0.5 x, on a dark ground.
    const [width, height] = [120, 90];
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        if (Math.abs(y - (20 + 0.5 * x)) <= 2) data.fill(255, (y * width + x) * 3, (y * width + x + 1) * 3);
    const band = { left: 10, right: 110, x0: 0, y0: 20, slope: 0.5, half: 10 };
    const cut = alongBand({ width, height, data }, band);
    expect(cut).toMatchObject({ width: 200, height: 40 });
    // Level: in every column the line lies in the middle rows.
    for (const x of [5, 100, 195]) {
      const bright = Array.from({ length: cut.height }, (_, y) => cut.data[(y * cut.width + x) * 3]! > 128);
      expect(bright.indexOf(true)).toBeGreaterThanOrEqual(15);
      expect(bright.lastIndexOf(true)).toBeLessThanOrEqual(24);
    }
    const back = fromBand(line('VF16P2W428K388018', 0, 0, 1, 1), band, width, height);
    expect(back.box.x * width).toBeCloseTo(10);
    expect(back.box.width * width).toBeCloseTo(100);
    expect(back.box.y * height).toBeCloseTo(15);
    expect((back.box.y + back.box.height) * height).toBeCloseTo(85);
    expect(back.vinOnly).toBe(true);
  });
});

describe('endsTrimmed', () => {
  it("leaves out what was read unsurely at either end: the plate's rivets and edges", () => {
    const read = {
      text: 'JTDRUFSV9EF968352O',
      confidence: 0.94,
      chars: [...Array<number>(17).fill(0.98), 0.38],
    };
    expect(endsTrimmed(read)).toMatchObject({
      text: 'JTDRUFSV9EF968352',
      chars: Array<number>(17).fill(0.98),
    });
    const both = { text: 'o VF16 P2', confidence: 0.9, chars: [0.3, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9] };
    expect(endsTrimmed(both).text).toBe('VF16 P2');
    // A rivet before the VIN, read surely as a round character: no VIN starts so.
    const rivet = {
      text: 'O WVWZZZ5L31F879321',
      confidence: 0.9,
      chars: [0.63, ...Array<number>(18).fill(0.95)],
    };
    expect(endsTrimmed(rivet).text).toBe('WVWZZZ5L31F879321');
    // One after it, read as a round letter past a VIN's length: no VIN holds an O.
    const after = {
      text: '1FTWWBZS8F6440172O',
      confidence: 0.95,
      chars: [...Array<number>(17).fill(0.95), 0.65],
    };
    expect(endsTrimmed(after).text).toBe('1FTWWBZS8F6440172');
    // Within a VIN's length it may be the VIN's last 0 read as an O: the look-alikes settle it.
    const last = { text: 'FTWWBZS8F6440172O', confidence: 0.95, chars: Array<number>(17).fill(0.95) };
    expect(endsTrimmed(last)).toBe(last);
    // Inside the line, an unsure character stays (the VIN's look-alikes settle it).
    const inside = { text: 'VF16P2W4', confidence: 0.9, chars: [0.9, 0.9, 0.9, 0.4, 0.9, 0.9, 0.9, 0.9] };
    expect(endsTrimmed(inside)).toBe(inside);
  });
});
