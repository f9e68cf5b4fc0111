import { describe, expect, it } from 'vitest';
import { isVinCheckDigitValid, matchVin, normaliseVin, usesNoCheckDigit, vinCheckDigit } from './vin.js';

describe('VIN', () => {
  it('computes the ISO 3779 check digit', () => {
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(isVinCheckDigitValid('1M8GDM9AXKP042788')).toBe(true);
    expect(isVinCheckDigitValid('1HGCM82633A004352')).toBe(true);
    expect(isVinCheckDigitValid('1HGCM82643A004352')).toBe(false);
  });

  it('reads I, O and Q, never in a VIN, as 1, 0 and 0', () => {
    expect(normaliseVin('1hgcm82633a0o4352')).toBe('1HGCM82633A004352');
    // Z for 2 is a look-alike to undo; the O's are no VIN character, read as 0 before anything.
    expect(matchVin('1HGCM8Z633AOO4352')).toMatchObject({ vin: '1HGCM82633A004352', corrections: 1 });
    expect(matchVin('1HGCM82633AO04352')).toEqual({
      vin: '1HGCM82633A004352',
      checkDigitValid: true,
      corrections: 0,
    });
  });

  it('undoes the one look-alike whose change alone makes the check digit hold', () => {
    expect(matchVin('1HGCM8Z633A004352')).toEqual({
      vin: '1HGCM82633A004352',
      checkDigitValid: true,
      corrections: 1,
    });
    expect(matchVin('1HGCM82633A0043S2')).toEqual({
      vin: '1HGCM82633A004352',
      checkDigitValid: true,
      corrections: 1,
    });
  });

  it('tries a look-alike only where the recogniser was unsure of the character', () => {
    const sure = Array<number>(17).fill(0.99);
    expect(matchVin('1HGCM8Z633A004352', sure)).toBeUndefined();
    const unsureOfZ = sure.map((c, i) => (i === 6 ? 0.6 : c));
    expect(matchVin('1HGCM8Z633A004352', unsureOfZ)).toMatchObject({
      vin: '1HGCM82633A004352',
      corrections: 1,
    });
    // A misread digit whose look-alike elsewhere would make the check hold: not when that one was sure.
    expect(matchVin('1M8GDM9A1KP042788')).toMatchObject({ vin: '1M8GDM9A1KP04Z788' });
    expect(matchVin('1M8GDM9A1KP042788', sure)).toBeUndefined();
  });

  it('reports no VIN whose check digit fails, unless its maker uses none', () => {
    expect(matchVin('1HGCM82643A004352')).toBeUndefined();
    // VW: European WMI, a filler Z at position 9: taken as read, no change tried.
    expect(usesNoCheckDigit('WVWZZZ1JZXW000001')).toBe(true);
    expect(matchVin('WVWZZZ1JZXW000001')).toEqual({
      vin: 'WVWZZZ1JZXW000001',
      checkDigitValid: false,
      corrections: 0,
    });
    // European WMI with a digit at position 9: the check digit applies.
    expect(usesNoCheckDigit('WBA3A5C50CF256551')).toBe(false);
  });

  it('takes no text that is not a VIN', () => {
    for (const text of ['PARKINGPROHIBITED', 'ABCDEFGHJKLMNPRST', '12345678901234567', 'WVWZZZ1JZXW00000'])
      expect(matchVin(text), text).toBeUndefined();
  });
});
