import { Alert, Anchor, Breadcrumbs, Button, Group, Loader, Paper, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { RemoteSelect } from '../../../components/form/remote-select';
import { ApiError } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDefinition } from '../../tables/api/get-definition';
import { DefinitionError } from '../../tables/components/table-common';
import { serverDetail } from '../../tables/components/table-errors';
import { useCreatePackage, usePosContradictions } from '../api/packages';
import { fieldLabel } from '../model/labels';
import { ContradictionPicker } from './contradiction-picker';

/**
 * /app/table/custom/contracdictionpackage/create: a package of one point of
 * sale, with the contradictions of that point of sale picked into it (their
 * count and sum shown as they are picked).
 */
export default function PackageCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const def = useDefinition('contradictionpackage');
  const [pos, setPos] = useState<number | null>(Number(search.get('pos_id')) > 0 ? Number(search.get('pos_id')) : null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const contradictions = usePosContradictions(pos);
  const create = useCreatePackage();
  if (def.isPending) return <Loader m="xl" />;
  if (def.isError) return <DefinitionError table="contradictionpackage" error={def.error} />;
  const posRef = def.data.attributes.find((a) => a.attribute === 'pos_id')?.ref;
  const label = (f: string) => fieldLabel(def.data, f);

  const save = () => {
    const missing: Record<string, string> = {};
    if (!pos) missing.pos_id = t('validation.required', { field: label('pos_id') });
    if (!name.trim()) missing.contradictionpackage_name = t('validation.required', { field: label('contradictionpackage_name') });
    setErrors(missing);
    if (Object.keys(missing).length > 0 || !pos) return;
    const rows = contradictions.data ?? [];
    create.mutate(
      {
        pos_id: pos,
        contradictionpackage_name: name.trim(),
        contradictionpackage_description: description.trim() || null,
        contradiction_ids: rows.map((r) => Number(r.contradiction_id)).filter((id) => picked.has(id)),
      },
      {
        onSuccess: ({ id }) => {
          notifySuccess(t('invoices.package_saved'));
          navigate(`/app/table/custom/contracdictionpackage/view/${id}`, { replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors());
          notifyError(serverDetail(error));
        },
      },
    );
  };

  return (
    <Stack gap="md" maw={1100}>
      <Stack gap={4}>
        <Breadcrumbs>
          <Anchor component={Link} to="/app/table/contradictionpackage" size="sm">
            {t('table.contradictionpackage')}
          </Anchor>
          <span>{t('invoices.new_package')}</span>
        </Breadcrumbs>
        <Title order={1} size="h2">
          {t('invoices.new_package')}
        </Title>
      </Stack>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          {posRef && (
            <RemoteSelect
              refDef={posRef}
              source={{ entity: 'contradictionpackage', field: 'pos_id' }}
              label={label('pos_id')}
              value={pos}
              onChange={(v) => {
                setPos(typeof v === 'number' ? v : null);
                setPicked(new Set());
              }}
              nothingFound={t('form.not_available', { field: label('pos_id') })}
              required
              error={errors.pos_id}
              data-field="pos_id"
            />
          )}
          <TextInput
            label={label('contradictionpackage_name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.contradictionpackage_name}
          />
          <Textarea
            label={label('contradictionpackage_description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            autosize
            minRows={2}
            error={errors.contradictionpackage_description}
          />
        </Stack>
      </Paper>
      {pos && (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('invoices.pick_contradictions')}
            </Title>
            {contradictions.isPending && <Loader size="sm" />}
            {contradictions.isError && <Alert color="red">{serverDetail(contradictions.error)}</Alert>}
            {contradictions.data && (
              <ContradictionPicker
                rows={contradictions.data}
                picked={picked}
                onToggle={(id, on) =>
                  setPicked((prev) => {
                    const next = new Set(prev);
                    if (on) next.add(id);
                    else next.delete(id);
                    return next;
                  })
                }
              />
            )}
          </Stack>
        </Paper>
      )}
      <Group justify="flex-end">
        <Button variant="default" component={Link} to="/app/table/contradictionpackage">
          {t('form.cancel')}
        </Button>
        <Button onClick={save} loading={create.isPending}>
          {t('invoices.create_package')}
        </Button>
      </Group>
    </Stack>
  );
}
