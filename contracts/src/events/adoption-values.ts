export type PetTypeValue = 'Dog' | 'Cat' | 'Bird' | 'Rabbit' | 'Hamster' | 'Other';
export type AgeUnitValue = 'yrs' | 'months' | 'weeks';
export type GenderValue = 'Male' | 'Female' | 'Unknown';
export type SizeValue = 'Small' | 'Medium' | 'Large';
