import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type CurrentUser, session } from '../../../lib/session';

export interface ProfileInput {
  user_firstname: string;
  user_lastname: string;
  user_fix_phonenumber: string | null;
  user_fax_phonenumber: string | null;
  user_mobile: string | null;
  user_language: string;
}

/** PUT /user/: updates the user's own profile and answers the updated record. */
export function updateProfile(input: ProfileInput): Promise<CurrentUser> {
  return api.put<CurrentUser>('/user/', input);
}

/** Saves the profile and keeps the stored user record in step. */
export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (answer, input) => {
      const current = session.getState().user;
      if (!current) return;
      // Keep rights and menu data even if the answer leaves them out.
      session.setUser({ ...current, ...input, ...(answer ?? {}), rules: answer?.rules ?? current.rules });
    },
  });
}
