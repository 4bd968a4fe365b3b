/** Minimum length of a new password. */
export const PASSWORD_MIN_LENGTH = 10;

/** The password rule of the server: at least 10 characters, a letter and a digit. */
export function isStrongPassword(password: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && /\p{L}/u.test(password) && /\d/.test(password);
}
