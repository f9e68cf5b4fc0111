import { describe, expect, it } from 'vitest';
import { PLATE_FORMATS } from '../domain/plate-formats.js';
import { matchPlate } from './plates.js';

describe('plate formats', () => {
  it.each(PLATE_FORMATS.filter((f) => /[LCA]/.test(f.format)))(
    '$country $format: its example is a plate of its country',
    ({ country, example }) => {
      const match = matchPlate(example, country);
      expect(match?.corrections).toBe(0);
      expect(match?.plate.replaceAll('-', '')).toBe(example.replace(/[^A-Z0-9]/g, ''));
    },
  );

  it('groups a reading as its format does, whatever separators OCR read', () => {
    expect(matchPlate('AB 123 CD')).toMatchObject({ plate: 'AB-123-CD', country: 'FR', corrections: 0 });
    expect(matchPlate('AB123CD')).toMatchObject({ plate: 'AB-123-CD', corrections: 0 });
    expect(matchPlate('1234 BCD')).toMatchObject({ plate: '1234-BCD', country: 'ES' });
    expect(matchPlate('MH12AB1234')).toMatchObject({ plate: 'MH-12-AB-1234', country: 'IN' });
    expect(matchPlate('AB12 CDE')).toMatchObject({ plate: 'AB12-CDE', country: 'GB' });
  });

  it('reads a look-alike as the kind its position needs, and counts it', () => {
    expect(matchPlate('A8-I23-CD')).toMatchObject({ plate: 'AB-123-CD', corrections: 2 });
    expect(matchPlate('AB-12O-CD')).toMatchObject({ plate: 'AB-120-CD', corrections: 1 });
  });

  it('changes a look-alike read surely only between 0 and O, which plate fonts draw alike', () => {
    const sure = Array<number>(7).fill(0.99);
    expect(matchPlate('0066 ABT', undefined, sure)).toMatchObject({ plate: 'OO66-ABT', corrections: 2 });
    expect(matchPlate('AB12 CD8', undefined, sure)).toBeUndefined();
    expect(matchPlate('AB12 CD8', undefined, [...sure.slice(0, 6), 0.5])).toMatchObject({
      plate: 'AB12-CDB',
    });
  });

  it('takes only consonants where a country issues no vowels (Spain, the Netherlands)', () => {
    expect(matchPlate('1234 BCD', 'ES')).toMatchObject({ plate: '1234-BCD', corrections: 0 });
    expect(matchPlate('1234 ABC', 'ES')).toBeUndefined();
    expect(matchPlate('12-BD-FG', 'NL')).toMatchObject({ corrections: 0 });
    expect(matchPlate('12-AB-CD', 'NL')).toBeUndefined();
    // A digit's look-alike that is a vowel does not stand for a consonant; one that is a consonant does.
    expect(matchPlate('1234 B0D', 'ES')).toBeUndefined();
    expect(matchPlate('1234 B8D', 'ES')).toMatchObject({ plate: '1234-BBD', corrections: 1 });
    // So a British plate whose O's were read as zeros is no Spanish one: its A is a vowel.
    expect(matchPlate('0066ABT')).toMatchObject({ plate: 'OO66-ABT', country: 'GB', corrections: 2 });
  });

  it('takes no number starting with 0 where a country has none (Germany, the Emirates)', () => {
    expect(matchPlate('M-AB 1234', 'DE')).toMatchObject({ plate: 'M-AB-1234', corrections: 0 });
    expect(matchPlate('M-AB 0123', 'DE')).toBeUndefined();
    // A 0 just before the number is the second letter's O.
    expect(matchPlate('BN-O 9045', 'DE')).toMatchObject({ plate: 'BN-O-9045', corrections: 0 });
    expect(matchPlate('BN-0 9045', 'DE')).toMatchObject({ plate: 'BN-O-9045', corrections: 1 });
    expect(matchPlate('2 13019', 'AE')).toMatchObject({ plate: '2-13019' });
    // An analogue trip counter's figures beside a red drum: no Abu Dhabi number starts with 0.
    expect(matchPlate('2 03019', 'AE')).toBeUndefined();
    expect(matchPlate('X 05964', 'AE')).toBeUndefined();
  });

  it('takes no text that fits no format, or only with too many changes', () => {
    for (const text of ['PARKING', 'PROHIBITED', 'DOUBLE', 'NOTICE', 'HELLO WORLD', 'ABCD', '12'])
      expect(matchPlate(text), text).toBeUndefined();
    expect(matchPlate('AB-IZO-CD')).toBeUndefined(); // three changes
    // A gap read inside a group: no plate, though the characters alone would fit one.
    expect(matchPlate('TRIP A 123 4')).toBeUndefined();
    // A gap missed only where letters meet digits: a word or a number is not split into groups.
    expect(matchPlate('RANGE 72')).toBeUndefined();
    expect(matchPlate('AB123CD')).toMatchObject({ plate: 'AB-123-CD' });
  });

  it('tries a format of digits only for its own country', () => {
    expect(matchPlate('12345')).toBeUndefined();
    expect(matchPlate('1 12345', 'AE')).toMatchObject({ plate: '1-12345', country: 'AE' });
  });
});
