import type { AuthProvider } from 'react-admin';
import { sessionStore } from '../shared/session-store';

/**
 * The dashboard's view of the app's session (frontend/src/shared/session-store): there is no login page of its
 * own, the admin signs in on /signin. Lost credentials (a 401 or 403 from any admin call) clear the session and
 * lead to /signin; the app's route guard sends anyone else who is not an admin to /.
 */
const SIGN_IN = '/signin';

const adminUser = () => {
  const { user, token } = sessionStore.get();
  return user?.isAdmin && token ? user : null;
};

export const authProvider: AuthProvider = {
  login: () => Promise.reject(new Error('Sign in on /signin')),
  // Sign Out (the header's button) calls the server through the app's useSignOut; this is the local end.
  logout: () => {
    if (sessionStore.get().user || sessionStore.get().token) sessionStore.clear();
    return Promise.resolve(SIGN_IN);
  },
  checkAuth: () =>
    adminUser() ? Promise.resolve() : Promise.reject({ redirectTo: SIGN_IN, message: false }),
  checkError: (error: { status?: number } | undefined) => {
    const status = error?.status;
    if (status === 401 || status === 403) {
      sessionStore.clear();
      return Promise.reject({ redirectTo: SIGN_IN, logoutUser: true, message: false });
    }
    return Promise.resolve();
  },
  getIdentity: () => {
    const user = adminUser();
    if (!user) return Promise.reject(new Error('Not signed in'));
    const id = user.id || user._id;
    return Promise.resolve({
      id,
      // The header shows the admin's username, else the e-mail.
      fullName: user.username || user.email,
      avatar: user.profileImage || undefined,
    });
  },
  getPermissions: () => Promise.resolve(adminUser() ? 'admin' : null),
};
