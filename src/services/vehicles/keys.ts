// What identifies the vehicle of an inspection (docs/vehicles.md#which-vehicle): its VIN or, when there is
// none, its plate; each from `inputMetaData` first, else from a confident reading of the photos. Pure.
import { compactReading } from '../../domain/result/digest.js';

export interface VehicleKeys {
  vin: string | null;
  plate: string | null;
}

/** A plate read at least this surely, and in a known country's format, identifies the vehicle. */
export const CONFIDENT_PLATE = 0.8;
/** 17 characters without I, O or Q (ISO 3779); the client's own VIN is trusted without its check digit. */
const VIN = /^[A-HJ-NPR-Z0-9]{17}$/;
/** Shorter normalised plates are too likely to be shared by two vehicles. */
const MIN_PLATE = 4;

interface ReadingsLike {
  analysis?: {
    text?: {
      plate?: { read?: string | null; confidence?: number | null; country?: string | null };
      vin?: { read?: string | null; check_digit_valid?: boolean | null };
    };
  };
}

export function vehicleKeysOf(
  inputMetaData: Record<string, unknown> | null,
  media: ReadingsLike[],
): VehicleKeys {
  return {
    vin: vinOf(inputMetaData?.vin) ?? readVin(media),
    plate: plateOf(inputMetaData?.licensePlate) ?? readPlate(media),
  };
}

function vinOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const vin = compactReading(value);
  return VIN.test(vin) ? vin : null;
}

function plateOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const plate = compactReading(value);
  return plate.length >= MIN_PLATE ? plate : null;
}

function readVin(media: ReadingsLike[]): string | null {
  for (const item of media) {
    const vin = item.analysis?.text?.vin;
    // A VIN is reported only when its check digit holds, or its maker uses none (docs/result.md#text).
    if (vin?.read) return vinOf(vin.read);
  }
  return null;
}

function readPlate(media: ReadingsLike[]): string | null {
  for (const item of media) {
    const plate = item.analysis?.text?.plate;
    if (plate?.read && plate.country && (plate.confidence ?? 0) >= CONFIDENT_PLATE)
      return plateOf(plate.read);
  }
  return null;
}
