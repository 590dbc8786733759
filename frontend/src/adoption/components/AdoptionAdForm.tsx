import { useId, useState, type ComponentProps, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ADOPTION_LIMITS,
  ADOPTION_MESSAGES,
  AGE_UNITS,
  adoptionAdBody,
  DEFAULT_AGE_UNIT,
  GENDERS,
  PET_TYPES,
  SIZES,
  type AdoptionAdDto,
} from '@pawhaven/contracts';
import { useSession } from '../../shared/session';
import { adoptionApi, invalidateAdoptions } from '../api';
import { failureText, flagLabel, imageProblem, PET_FLAGS, serverFieldErrors, type PetFlag } from '../format';
import { ImagePicker } from '../../shared/ui/ImagePicker';

type TextKey =
  'name' | 'age' | 'ageUnit' | 'petType' | 'breed' | 'location' | 'description' | 'gender' | 'size';
type Values = Record<TextKey, string>;
type Flags = Record<PetFlag, boolean>;
type Errors = Partial<Record<TextKey | 'image', string>>;

const TEXT_KEYS: TextKey[] = [
  'name',
  'age',
  'ageUnit',
  'petType',
  'breed',
  'location',
  'description',
  'gender',
  'size',
];

function initialValues(ad?: AdoptionAdDto): Values {
  return {
    name: ad?.name ?? '',
    age: ad?.age ?? '',
    ageUnit: ad?.ageUnit ?? DEFAULT_AGE_UNIT,
    petType: ad?.petType ?? '',
    breed: ad?.breed ?? '',
    location: ad?.location ?? '',
    description: ad?.description ?? '',
    gender: ad?.gender ?? '',
    size: ad?.size ?? '',
  };
}
const initialFlags = (ad?: AdoptionAdDto): Flags =>
  Object.fromEntries(PET_FLAGS.map((f) => [f, ad?.[f] === true])) as Flags;

type Props =
  | {
      mode: 'create';
      ad?: undefined;
      /** Called with the server's success text ('Adoption post created successfully!'). */
      onDone: (message: string) => void;
      onCancel?: () => void;
      /** Fallback when the server sends no message. */
      failureFallback?: string;
    }
  | {
      mode: 'edit';
      ad: AdoptionAdDto;
      onDone: (message: string | null) => void;
      onCancel: () => void;
      failureFallback?: string;
    };

/**
 * The adoption ad form: name, age, location, pet type, description and image are required; breed, age unit, gender,
 * size and the yes/no facts are optional. Create sends multipart; edit sends only what changed (JSON, or multipart with
 * a new image). Rules and texts come from contracts; nothing typed is lost on a failure.
 */
export function AdoptionAdForm(props: Props) {
  const { mode, ad } = props;
  const { user, token } = useSession();
  const queryClient = useQueryClient();
  const uid = useId();
  const fid = (key: string) => `${uid}-${key}`;

  const [values, setValues] = useState<Values>(() => initialValues(ad));
  const [flags, setFlags] = useState<Flags>(() => initialFlags(ad));
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (body: FormData | Record<string, unknown>) =>
      mode === 'create' ? adoptionApi.create(body as FormData) : adoptionApi.update(props.ad!._id, body),
    onSuccess: () => invalidateAdoptions(queryClient),
  });
  const busy = save.isPending;

  const set = (key: TextKey) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    setFormError(null);
  };

  const pickImage = (file: File | null) => {
    setFormError(null);
    if (!file) {
      setImage(null);
      setErrors((e) => ({ ...e, image: undefined }));
      return;
    }
    const problem = imageProblem(file, ADOPTION_LIMITS.imageMaxBytes, ADOPTION_MESSAGES.imageTooLarge);
    setErrors((e) => ({ ...e, image: problem ?? undefined }));
    if (!problem) setImage(file);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!user) return setFormError(ADOPTION_MESSAGES.mustBeLoggedInToCreate);
    if (!token) return setFormError(ADOPTION_MESSAGES.tokenMissing);

    const parsed = adoptionAdBody.safeParse({
      ...values,
      ...Object.fromEntries(PET_FLAGS.filter((f) => flags[f]).map((f) => [f, true])),
    });
    const next: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as TextKey;
        if (TEXT_KEYS.includes(key)) next[key] ??= issue.message;
      }
    }
    if (mode === 'create' && !image) next.image = ADOPTION_MESSAGES.imageRequired;
    if (Object.keys(next).length > 0 || !parsed.success) {
      setErrors(next);
      setFormError('Please fix the highlighted fields.');
      return;
    }
    setErrors({});
    setFormError(null);
    const data = parsed.data;

    let body: FormData | Record<string, unknown>;
    if (mode === 'create') {
      const form = new FormData();
      for (const key of ['name', 'age', 'location', 'petType', 'description'] as const)
        form.append(key, data[key]);
      for (const key of ['breed', 'ageUnit', 'gender', 'size'] as const) {
        const v = data[key];
        if (v) form.append(key, v);
      }
      for (const f of PET_FLAGS) if (flags[f]) form.append(f, 'true');
      form.append('image', image!);
      body = form;
    } else {
      const before = props.ad!;
      const changes: Record<string, string | boolean> = {};
      for (const key of [
        'name',
        'age',
        'location',
        'petType',
        'description',
        'breed',
        'ageUnit',
        'gender',
        'size',
      ] as const) {
        const v = data[key];
        if (v !== undefined && v !== (before[key] ?? undefined)) changes[key] = v;
      }
      for (const f of PET_FLAGS) {
        if (flags[f] && before[f] !== true) changes[f] = true;
        else if (!flags[f] && before[f] === true) changes[f] = false;
      }
      if (Object.keys(changes).length === 0 && !image) {
        props.onDone(null);
        return;
      }
      if (image) {
        const form = new FormData();
        for (const [k, v] of Object.entries(changes)) form.append(k, String(v));
        form.append('image', image);
        body = form;
      } else body = changes;
    }

    const fallback =
      props.failureFallback ??
      (mode === 'create' ? 'Failed to create adoption post' : 'Failed to update adoption post');
    save.mutate(body, {
      onSuccess: (res) => {
        if (mode === 'create') props.onDone(res?.message || ADOPTION_MESSAGES.created);
        else props.onDone(res?.message ?? null);
      },
      onError: (err) => {
        setFormError(failureText(err, fallback));
        const fields = serverFieldErrors(err);
        setErrors(
          Object.fromEntries(
            Object.entries(fields).filter(([k]) => TEXT_KEYS.includes(k as TextKey)),
          ) as Errors,
        );
      },
    });
  };

  const text = (
    key: TextKey,
    label: string,
    extra: Partial<ComponentProps<typeof TextField>> & { maxLength?: number } = {},
  ) => {
    const { maxLength, ...rest } = extra;
    return (
      <TextField
        id={fid(key)}
        label={label}
        value={values[key]}
        onChange={(e) => set(key)(e.target.value)}
        error={Boolean(errors[key])}
        helperText={errors[key] ?? rest.helperText}
        disabled={busy}
        {...rest}
        slotProps={{ ...rest.slotProps, htmlInput: { maxLength } }}
      />
    );
  };

  const select = (
    key: TextKey,
    label: string,
    options: readonly string[],
    emptyLabel: string | null,
    required = false,
  ) => (
    <TextField
      id={fid(key)}
      select
      label={label}
      required={required}
      value={values[key]}
      onChange={(e) => set(key)(e.target.value)}
      error={Boolean(errors[key])}
      helperText={errors[key]}
      disabled={busy}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      {emptyLabel !== null && <option value="">{emptyLabel}</option>}
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </TextField>
  );

  // An optional choice that is already set cannot be cleared through the API: offer 'Not specified' only before.
  const canClear = (key: 'gender' | 'size') => mode === 'create' || !ad?.[key];

  return (
    <Box
      component="form"
      onSubmit={onSubmit}
      noValidate
      aria-label={mode === 'create' ? 'Create adoption ad' : `Edit ${ad?.name ?? 'adoption ad'}`}
    >
      <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {text('name', 'Pet Name', {
          required: true,
          autoComplete: 'off',
          maxLength: ADOPTION_LIMITS.nameMaxLength,
        })}
        {select('petType', 'Pet Type', PET_TYPES, mode === 'create' ? 'Select a pet type' : null, true)}
        <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' }}>
          {text('age', 'Age', {
            required: true,
            placeholder: 'e.g. 2',
            maxLength: ADOPTION_LIMITS.ageMaxLength,
          })}
          {select('ageUnit', 'Age unit', AGE_UNITS, null)}
        </Box>
        {text('breed', 'Breed (optional)', {
          placeholder: 'Mixed',
          maxLength: ADOPTION_LIMITS.breedMaxLength,
        })}
        {text('location', 'Location', {
          required: true,
          placeholder: 'e.g. Lahore',
          autoComplete: 'address-level2',
          maxLength: ADOPTION_LIMITS.locationMaxLength,
        })}
        <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' }}>
          {select('gender', 'Gender', GENDERS, canClear('gender') ? 'Not specified' : null)}
          {select('size', 'Size', SIZES, canClear('size') ? 'Not specified' : null)}
        </Box>
      </Box>
      {text('description', 'Description', {
        required: true,
        multiline: true,
        minRows: 4,
        maxLength: ADOPTION_LIMITS.descriptionMaxLength,
        helperText: `${values.description.length}/${ADOPTION_LIMITS.descriptionMaxLength}`,
        placeholder: 'Personality, health, habits and what kind of home would suit this pet',
      })}

      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 1 }}>
        <Typography component="legend" variant="body2" sx={{ fontWeight: 700 }}>
          Health and temperament (optional)
        </Typography>
        <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {PET_FLAGS.map((f) => (
            <FormControlLabel
              key={f}
              label={flagLabel(f)}
              control={
                <Checkbox
                  checked={flags[f]}
                  onChange={(e) => setFlags((x) => ({ ...x, [f]: e.target.checked }))}
                  disabled={busy}
                />
              }
            />
          ))}
        </FormGroup>
      </Box>

      <ImagePicker
        label={mode === 'create' ? 'Pet image' : 'New pet image (optional)'}
        buttonLabel={mode === 'create' ? 'Choose image' : 'Replace image'}
        file={image}
        onChange={pickImage}
        required={mode === 'create'}
        disabled={busy}
        error={errors.image}
        hint={ADOPTION_MESSAGES.imageHint}
      />

      {formError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {formError}
        </Alert>
      )}

      <Stack
        direction={{ xs: 'column-reverse', sm: 'row' }}
        spacing={1.5}
        sx={{ mt: 3, justifyContent: 'flex-end' }}
      >
        {props.onCancel && (
          <Button type="button" variant="outlined" onClick={props.onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={busy}>
          {mode === 'create'
            ? busy
              ? 'Posting...'
              : 'Post for Adoption'
            : busy
              ? 'Saving...'
              : 'Save Changes'}
        </Button>
      </Stack>
    </Box>
  );
}
