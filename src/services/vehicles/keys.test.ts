import { describe, expect, it } from 'vitest';
import { vehicleKeysOf } from './keys.js';

const reading = (plate: object, vin: object = { read: null }) => ({ analysis: { text: { plate, vin } } });

describe('vehicleKeysOf', () => {
  it('takes the VIN and plate of inputMetaData first, normalised', () => {
    const keys = vehicleKeysOf({ vin: 'wvw zzz1jz3w386752', licensePlate: 'ab-123-cd' }, [
      reading({ read: 'XY999ZZ', confidence: 0.99, country: 'FR' }, { read: 'WBA3A5C51CF256551' }),
    ]);
    expect(keys).toEqual({ vin: 'WVWZZZ1JZ3W386752', plate: 'AB123CD' });
  });

  it('falls back on a VIN read and on a plate read surely in a known format', () => {
    const keys = vehicleKeysOf(null, [
      reading({ read: 'AB123CD', confidence: 0.5, country: 'FR' }),
      reading({ read: 'XY99ZZZ', confidence: 0.95, country: null }),
      reading({ read: 'GH-456-JK', confidence: 0.9, country: 'FR' }, { read: 'WBA3A5C51CF256551' }),
    ]);
    expect(keys).toEqual({ vin: 'WBA3A5C51CF256551', plate: 'GH456JK' });
  });

  it('ignores a VIN with I, O or Q and a plate too short to tell vehicles apart', () => {
    expect(vehicleKeysOf({ vin: 'WVWZZZ1JZ3W38675O', licensePlate: 'A1' }, [])).toEqual({
      vin: null,
      plate: null,
    });
  });
});
