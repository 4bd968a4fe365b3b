import { createMongoAbility, type RawRuleOf } from '@casl/ability';
import { describe, expect, it } from 'vitest';
import shared from '../../../internal/access/testdata/can-cases.json';
import { buildAbility, type Action, type AppAbility } from './ability';
import type { RawAbilityRule } from './session';

/**
 * One definition, two evaluators: the case table the Go server's access.Can
 * is tested on (internal/access/parity_test.go) must give the same answers
 * in CASL, so the browser never shows what the server refuses or hides what
 * it allows.
 */
interface CanCase {
  name: string;
  rules: RawRuleOf<AppAbility>[];
  action: string;
  subject: string;
  allowed: boolean;
}

const cases = shared as unknown as CanCase[];

describe('CASL agrees with access.Can', () => {
  it('reads the shared cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s (createMongoAbility)', (_name, c) => {
    const ability = createMongoAbility<[Action, string]>(c.rules);
    expect(ability.can(c.action as Action, c.subject)).toBe(c.allowed);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s (buildAbility)', (_name, c) => {
    const ability = buildAbility(c.rules as unknown as RawAbilityRule[]);
    expect(ability.can(c.action as Action, c.subject)).toBe(c.allowed);
  });
});
