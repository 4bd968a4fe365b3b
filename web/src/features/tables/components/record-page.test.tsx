import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../lib/session';
import { fakeDefinition, fakeTables } from '../../../test/fake-tables';
import { loginAs, makeUser, renderApp } from '../../../test/render-app';

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

// A table the server allows no update of (the text templates: their
// wording is edited as text modules).
const readOnly = fakeDefinition('texttemplate', { limits: { create: false, update: false, delete: false, list: true } });
const tables = fakeTables({ texttemplate: { def: readOnly, rows: [{ texttemplate_id: 1, texttemplate_name: 'Index adjustment letter', row_version: 1 }] } });

describe('record page', () => {
  it('offers no edit of a record the server allows no update of, not even by its edit URL', async () => {
    const admin = makeUser([{ action: 'manage', subject: 'all' }]);
    loginAs(admin);
    renderApp('/app/table/texttemplate/view/1?edit=true', admin, tables);
    expect(await screen.findByRole('heading', { name: /Index adjustment letter/ }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
