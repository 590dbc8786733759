import { describe, expect, it } from 'vitest';
import { ADOPTION_LIMITS, ADOPTION_MESSAGES } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import {
  attributeLabels,
  breedText,
  failureText,
  imageProblem,
  isLongDescription,
  locationText,
  ownerIdOf,
  serverFieldErrors,
  shortDate,
} from './format';

const none = {
  gender: null,
  size: null,
  vaccinated: null,
  spayedNeutered: null,
  goodWithChildren: null,
  goodWithDogs: null,
  goodWithCats: null,
};

describe('adoption card texts', () => {
  it("defaults breed to 'Mixed' and location to 'Location not specified'", () => {
    expect(breedText({ breed: '' })).toBe('Mixed');
    expect(breedText({ breed: 'Persian' })).toBe('Persian');
    expect(locationText({ location: '  ' })).toBe(ADOPTION_MESSAGES.locationMissing);
  });

  it("offers 'Read more...' only above 100 characters", () => {
    expect(isLongDescription('a'.repeat(100))).toBe(false);
    expect(isLongDescription('a'.repeat(101))).toBe(true);
  });

  it('lists only the attributes that are known', () => {
    expect(attributeLabels(none)).toEqual([]);
    expect(
      attributeLabels({ ...none, gender: 'Female', size: 'Small', vaccinated: true, goodWithDogs: false }),
    ).toEqual(['Female', 'Small', 'Vaccinated', 'Not good with dogs']);
  });

  it('reads the owner id from a populated owner or a plain id', () => {
    expect(ownerIdOf({ userId: 'u1' })).toBe('u1');
    expect(
      ownerIdOf({ userId: { _id: 'u2', username: 'x', isVeterinarian: false, profileImage: null } }),
    ).toBe('u2');
  });

  it('formats history dates en-US short', () => {
    expect(shortDate('2025-03-04T10:00:00Z')).toBe('Mar 4, 2025');
    expect(shortDate(null)).toBeNull();
    expect(shortDate('nonsense')).toBeNull();
  });
});

describe('adoption errors and images', () => {
  it("shows the server's message, else the fixed fallback", () => {
    const withMessage = new ApiError('http', 409, 'This request has already been answered', {}, 'x');
    const without = new ApiError('http', 500, null, null, 'x');
    const offline = new ApiError('network', 0, null, null, 'Network error');
    expect(failureText(withMessage, 'Failed to request adoption')).toBe(
      'This request has already been answered',
    );
    expect(failureText(without, 'Failed to request adoption')).toBe('Failed to request adoption');
    expect(failureText(offline, 'Failed to request adoption')).toBe('Failed to request adoption');
  });

  it('reads field errors of a validation answer', () => {
    const err = new ApiError(
      'http',
      400,
      'Name is required',
      { fields: { name: 'Name is required', n: 1 } },
      'x',
    );
    expect(serverFieldErrors(err)).toEqual({ name: 'Name is required' });
    expect(serverFieldErrors(new Error('x'))).toEqual({});
  });

  it("accepts an ad's picture under 2MB and a proof picture under 5MB, as the hints say", () => {
    const file = (type: string, size: number) => new File([new Uint8Array(size)], 'f', { type });
    const MB = 1024 * 1024;
    const ad = [ADOPTION_LIMITS.imageMaxBytes, ADOPTION_MESSAGES.imageTooLarge] as const;
    const proof = [ADOPTION_LIMITS.proofImageMaxBytes, ADOPTION_MESSAGES.proofImageTooLarge] as const;
    expect(ADOPTION_MESSAGES.imageHint).toBe('PNG, JPG or JPEG (max 2MB)');
    expect(imageProblem(file('image/png', 2 * MB - 1), ...ad)).toBeNull();
    expect(imageProblem(file('image/png', 2 * MB), ...ad)).toBe('Image size should be less than 2MB');
    expect(imageProblem(file('image/png', 3 * MB), ...ad)).toBe('Image size should be less than 2MB');
    expect(imageProblem(file('text/plain', 10), ...ad)).toBe(ADOPTION_MESSAGES.imageInvalid);
    expect(ADOPTION_MESSAGES.proofImageHint).toMatch(/An image under 5MB\.$/);
    expect(imageProblem(file('image/png', 3 * MB), ...proof)).toBeNull();
    expect(imageProblem(file('image/png', 5 * MB), ...proof)).toBe('Image size should be less than 5MB');
  });
});
