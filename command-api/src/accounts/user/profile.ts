import { type UserEvent } from '@pawhaven/contracts';
import type { UserCommand } from './commands';
import { requireActive } from './rules';
import type { UserState } from './state';

export type ProfileCommand = Extract<
  UserCommand,
  { type: 'UpdateProfile' | 'ChangeProfileImage' | 'RemoveProfileImage' }
>;

/**
 * The public profile: contact details, about, and the profile picture.
 */
export function decideProfile(command: ProfileCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'UpdateProfile': {
      requireActive(state);
      return [{ type: 'ProfileUpdated', data: command.data }];
    }
    case 'ChangeProfileImage': {
      requireActive(state);
      return [{ type: 'ProfileImageChanged', data: command.data }];
    }
    case 'RemoveProfileImage': {
      requireActive(state);
      if (!state.profileImage) return [];
      return [{ type: 'ProfileImageRemoved', data: {} }];
    }
  }
}
