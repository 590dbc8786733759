import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import SendIcon from '@mui/icons-material/SendOutlined';
import { CONTACT_MESSAGES } from '@pawhaven/contracts';
import { contactApi } from './api';
import {
  CONTACT_SUCCESS_MS,
  EMPTY_CONTACT,
  contactFailureText,
  contactPayload,
  hasErrors,
  validateContact,
  type ContactErrors,
  type ContactFields,
} from './validation';

/**
 * The contact form of the landing page and /contactus: name, e-mail and message are required and the e-mail must be
 * text@text.text, else nothing is sent. After a send the fields reset and the success flag shows for 5 seconds; a
 * failure says so (the server's text when it gave one, e.g. on 429) and keeps what was typed.
 */
export function ContactForm({ idPrefix }: { idPrefix?: string }) {
  const autoId = useId();
  const prefix = idPrefix ?? `contact${autoId.replace(/:/g, '')}`;
  const [fields, setFields] = useState<ContactFields>(EMPTY_CONTACT);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [sending, setSending] = useState(false);
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLTextAreaElement>(null);

  // The success flag goes away after 5 seconds.
  useEffect(() => {
    if (sentAt === null) return;
    const timer = window.setTimeout(() => setSentAt(null), CONTACT_SUCCESS_MS);
    return () => window.clearTimeout(timer);
  }, [sentAt]);

  const change = (key: keyof ContactFields) => (value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    // A corrected field loses its error at once; a new error waits for the next send.
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (sending) return;
    const found = validateContact(fields);
    setErrors(found);
    setFailure(null);
    if (hasErrors(found)) {
      setSentAt(null);
      (found.name ? nameRef : found.email ? emailRef : messageRef).current?.focus();
      return;
    }
    setSending(true);
    try {
      await contactApi.send(contactPayload(fields));
      setFields(EMPTY_CONTACT);
      setSentAt(Date.now());
    } catch (err) {
      setFailure(contactFailureText(err));
    } finally {
      setSending(false);
    }
  };

  const field = (key: keyof ContactFields) => ({
    id: `${prefix}-${key}`,
    name: key,
    value: fields[key],
    onChange: (e: { target: { value: string } }) => change(key)(e.target.value),
    error: !!errors[key],
    helperText: errors[key] ?? ' ',
    required: true,
    margin: 'dense' as const,
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      aria-label="Contact form"
      sx={{ display: 'grid', gap: 0.5 }}
    >
      <TextField {...field('name')} label="Name" autoComplete="name" inputRef={nameRef} />
      <TextField
        {...field('email')}
        label="Email"
        type="email"
        autoComplete="email"
        inputRef={emailRef}
        slotProps={{ htmlInput: { inputMode: 'email' } }}
      />
      <TextField {...field('message')} label="Message" multiline minRows={4} inputRef={messageRef} />
      <Box aria-live="polite">
        {sentAt !== null && (
          <Alert severity="success" role="status" sx={{ mb: 1 }}>
            {CONTACT_MESSAGES.sent}
          </Alert>
        )}
      </Box>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 1 }}>
          {failure}
        </Alert>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={sending}
        endIcon={<SendIcon aria-hidden />}
        sx={{ justifySelf: { xs: 'stretch', sm: 'start' } }}
      >
        {sending ? 'Sending...' : 'Send Message'}
      </Button>
    </Box>
  );
}
