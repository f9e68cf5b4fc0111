import { describe, expect, it } from 'vitest';
import { PLATE_FORMATS } from '../domain/plate-formats.js';
import { matchPlate } from './plates.js';

describe('plate formats', () => {
  it.each(PLATE_FORMATS.filter((f) => /[LA]/.test(f.format)))(
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
