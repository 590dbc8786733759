import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACCOUNT_MESSAGES, registerBody } from '@pawhaven/contracts';
import { errorText } from '../shared/api';
import { useConfig } from '../shared/config';
import { accountsApi } from './api';
import { AuthCard } from './AuthCard';
import { GoogleAuth } from './GoogleAuth';
import { PasswordField } from './PasswordField';
import { registrationTokens } from './registration-token';
import { newPasswordProblem, PASSWORD_OK, signupEmailProblem } from './validation';

type Errors = { username?: string | null; email?: string | null; password?: string | null };

export default function SignUpPage() {
  const navigate = useNavigate();
  const { data: config } = useConfig();
  const domain = config?.acceptedEmailDomain;
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [isVeterinarian, setIsVeterinarian] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [passwordTouched, setPasswordTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const register = useMutation({ mutationFn: accountsApi.register });

  const setField = (patch: Errors) => setErrors((e) => ({ ...e, ...patch }));
  const blocked = Boolean(errors.email || errors.password);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const parsed = registerBody.safeParse({ username, email, password, isVeterinarian });
    const usernameIssue = parsed.success
      ? null
      : (parsed.error.issues.find((i) => i.path[0] === 'username')?.message ?? null);
    const next: Errors = {
      username: usernameIssue,
      email: signupEmailProblem(email, domain),
      password: newPasswordProblem(password),
    };
    setErrors(next);
    setPasswordTouched(true);
    if (!parsed.success || next.username || next.email || next.password) return;
    register.mutate(parsed.data, {
      onSuccess: (res) => {
        const registered = res?.email || parsed.data.email;
        // The code in the mail verifies this sign-up only together with its token (kept for this tab).
        registrationTokens.save(registered, res?.registrationToken);
        navigate('/verify-registration', { state: { email: registered } });
      },
      onError: (err) =>
        setError(
          errorText(err, 'Registration failed', 'An error occurred while signing up. Please try again.'),
        ),
    });
  };

  const passwordError = passwordTouched ? errors.password : null;

  return (
    <AuthCard title="Create Your Account" subtitle="Join the community that gives every pet a loving home.">
      <Box component="form" onSubmit={onSubmit} noValidate sx={{ mt: 1 }}>
        <TextField
          id="signup-username"
          label="Username"
          autoComplete="username"
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
            if (errors.username)
              setField({ username: e.target.value.trim() ? null : ACCOUNT_MESSAGES.usernameRequired });
          }}
          error={Boolean(errors.username)}
          helperText={errors.username}
        />
        <TextField
          id="signup-email"
          label="Email"
          type="email"
          autoComplete="email"
          placeholder={domain ? `you@${domain}` : undefined}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setField({ email: signupEmailProblem(e.target.value, domain) });
          }}
          onBlur={() => setField({ email: signupEmailProblem(email, domain) })}
          error={Boolean(errors.email)}
          helperText={errors.email}
        />
        <PasswordField
          id="signup-password"
          label="Password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setPasswordTouched(true);
            setField({ password: newPasswordProblem(e.target.value) });
          }}
          error={Boolean(passwordError)}
          helperText={passwordError}
          successText={passwordTouched && !errors.password ? PASSWORD_OK : null}
        />

        <FormControl component="fieldset" sx={{ mt: 2 }}>
          <FormLabel component="legend" id="signup-type-label" sx={{ fontWeight: 700 }}>
            I am registering as
          </FormLabel>
          <RadioGroup
            row
            aria-labelledby="signup-type-label"
            name="userType"
            value={isVeterinarian ? 'veterinarian' : 'regular'}
            onChange={(e) => setIsVeterinarian(e.target.value === 'veterinarian')}
          >
            <FormControlLabel value="regular" control={<Radio />} label="Regular User" />
            <FormControlLabel value="veterinarian" control={<Radio />} label="Veterinarian" />
          </RadioGroup>
        </FormControl>

        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}

        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={blocked || register.isPending}
          sx={{ mt: 3 }}
        >
          {register.isPending ? 'Creating account...' : 'Sign Up'}
        </Button>
      </Box>

      <GoogleAuth />

      <Typography textAlign="center" sx={{ mt: 3 }}>
        Already have an account?{' '}
        <Link component={RouterLink} to="/signin" fontWeight={700}>
          Sign in
        </Link>
      </Typography>
    </AuthCard>
  );
}
