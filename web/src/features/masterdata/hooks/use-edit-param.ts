import { useSearchParams } from 'react-router';

/** Whether a record page is in edit mode (?edit=true), and how to switch it, keeping the other parameters. */
export function useEditParam(): [boolean, (on: boolean) => void] {
  const [search, setSearch] = useSearchParams();
  const setEdit = (on: boolean) =>
    setSearch((p) => {
      const next = new URLSearchParams(p);
      if (on) next.set('edit', 'true');
      else next.delete('edit');
      return next;
    });
  return [search.get('edit') === 'true', setEdit];
}
