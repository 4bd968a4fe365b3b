/** Query keys of the Back Office. */
export const backofficeKeys = {
  all: ['backoffice'] as const,
  jobs: () => ['backoffice', 'jobs'] as const,
};
