/**
 * The checked-in vectors are what the reference answers: `conformance/` is
 * exactly what `scripts/conformance.ts` writes (rerun it after a change to
 * the reference), every file follows its JSON Schema, every operation has
 * vectors, and every suite has invalid-input vectors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { conformanceFiles } from '../scripts/conformance.js';
import { OPS, SUITES } from '../src/cli/conform/reference.js';
import type { SuiteFile } from '../src/cli/conform/vectors.js';

const files = conformanceFiles();
const onDisk = (name: string) =>
  readFileSync(new URL(`../conformance/${name}`, import.meta.url), 'utf8');

describe('conformance/', () => {
  it('holds exactly what scripts/conformance.ts writes (npx tsx scripts/conformance.ts)', () => {
    expect(readdirSync(new URL('../conformance/', import.meta.url)).sort()).toEqual(
      Object.keys(files).sort(),
    );
    for (const [name, text] of Object.entries(files)) {
      expect(onDisk(name), `conformance/${name} drifted from the reference`).toBe(text);
    }
  });

  it('every suite file follows schema.json', () => {
    const ajv = new Ajv2020.default({ allErrors: true });
    const validate = ajv.compile(JSON.parse(files['schema.json']!));
    for (const suite of SUITES) {
      const ok = validate(JSON.parse(files[`${suite}.json`]!));
      expect(validate.errors ?? [], suite).toEqual([]);
      expect(ok).toBe(true);
    }
    expect(
      validate({
        suite: 'algebra',
        protocol: 1,
        description: '',
        groups: [{ op: 'merge', cases: [{ id: 'x' }] }],
      }),
    ).toBe(false);
  });

  it('every operation has vectors, every suite invalid-input ones, every id is unique', () => {
    const ids = new Set<string>();
    for (const suite of SUITES) {
      const file = JSON.parse(files[`${suite}.json`]!) as SuiteFile;
      expect(file.groups.map((g) => g.op).sort()).toEqual([...OPS[suite]].sort());
      const cases = file.groups.flatMap((g) => g.cases);
      expect(
        cases.filter((c) => c.description.startsWith('invalid')).length,
        suite,
      ).toBeGreaterThan(2);
      for (const c of cases) {
        expect(ids.has(c.id), c.id).toBe(false);
        ids.add(c.id);
      }
    }
  });

  it('the scenario vectors state the safety property: it holds unless a loss went untold', () => {
    const file = JSON.parse(files['scenario.json']!) as SuiteFile;
    for (const c of file.groups.flatMap((g) => g.cases)) {
      if (!('output' in c.expected)) continue;
      const safety = c.expected.safety as { holds: boolean; cited: boolean };
      const untold = JSON.stringify(c.input).includes('"told":false');
      expect(safety.cited, c.id).toBe(true);
      if (!untold) expect(safety.holds, c.id).toBe(true);
    }
    const stale = file.groups[0]!.cases.filter((c) => c.description.includes('nobody told'));
    expect(stale.map((c) => (c.expected as { safety: { holds: boolean } }).safety.holds)).toEqual([
      false,
      false,
    ]);
  });
});
