import type { AuthResponse, PublicUserDto, RegisterResponse, UserDto } from '@pawhaven/contracts';
import { api } from '../shared/api';

/** Calls of the auth root (`/api/auth`). Every command answer may also carry `position`. */
const AUTH = '/api/auth';

type Message = { message: string; position?: string };

export type GoogleLoginResponse =
  | { needsUserType: true; email: string; username: string; message?: string }
  | (AuthResponse & { needsUserType?: false });

export const accountsApi = {
  register: (body: { username: string; email: string; password: string; isVeterinarian: boolean }) =>
    api.post<RegisterResponse>(`${AUTH}/register`, body, { auth: false }),
  /** `registrationToken`: the one sign-up (or a sign-in before verifying) answered in this tab. */
  verifyRegistration: (body: { email: string; otp: string; registrationToken?: string }) =>
    api.post<AuthResponse>(`${AUTH}/verify-registration`, body, { auth: false }),
  resendOtp: (body: { email: string; registrationToken?: string }) =>
    api.post<Message>(`${AUTH}/resend-otp`, body, { auth: false }),

  signin: (body: { email: string; password: string; rememberMe: boolean }) =>
    api.post<AuthResponse>(`${AUTH}/signin`, body, { auth: false }),
  signout: () => api.post<Message>(`${AUTH}/signout`),
  loginGoogle: (credential: string) =>
    api.post<GoogleLoginResponse>(`${AUTH}/login-google`, { credential }, { auth: false }),
  completeGoogleRegistration: (body: {
    email: string;
    username: string;
    isVeterinarian: boolean;
    credential: string;
  }) => api.post<AuthResponse>(`${AUTH}/complete-google-registration`, body, { auth: false }),

  forgotPassword: (email: string) => api.post<Message>(`${AUTH}/forgot-password`, { email }, { auth: false }),
  verifyResetCode: (email: string, code: string) =>
    api.post<Message>(`${AUTH}/verify-reset-code`, { email, code }, { auth: false }),
  resendResetCode: (email: string) =>
    api.post<Message>(`${AUTH}/resend-reset-code`, { email }, { auth: false }),
  resetPassword: (body: { email: string; code: string; newPassword: string }) =>
    api.post<Message>(`${AUTH}/reset-password`, body, { auth: false }),

  changePassword: (body: { id: string; currentPassword: string; newPassword: string }) =>
    api.post<Message>(`${AUTH}/change-password`, body),
  updateProfile: (body: { id: string; phone: string; city: string; about: string }) =>
    api.post<{ user: UserDto; message: string; position?: string }>(`${AUTH}/update-profile`, body),
  profile: () => api.get<{ success: boolean; data: UserDto }>(`${AUTH}/profile`),
  publicProfile: (userId: string) =>
    api.get<{ success: boolean; message?: string; data: PublicUserDto }>(
      `${AUTH}/profile/${encodeURIComponent(userId)}`,
      {
        auth: false,
      },
    ),
  uploadProfileImage: (file: File) => {
    const form = new FormData();
    form.append('image', file);
    return api.post<{ success: boolean; data: { profileImage: string }; user: UserDto; position?: string }>(
      `${AUTH}/upload-profile-image`,
      form,
      { timeoutMs: 30_000 },
    );
  },
  removeProfileImage: () =>
    api.delete<{ success: boolean; user: UserDto; position?: string }>(`${AUTH}/remove-profile-image`),
};
