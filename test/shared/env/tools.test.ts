// Tool schemas: JSON Schema for agents, JSON-string arguments, strict fields, formatting helpers.
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES, TOOL_SCHEMAS, toolJsonSchemas } from '../../../src/shared/kinds/splatbench/tools';
import { budgetFooter } from '../../../src/shared/kinds/splatbench/format';
import { pyFloat, pyVec } from '../../../src/shared/math/format';
import { formatIssues } from '../../../src/shared/env/issues';

describe('tool schemas', () => {
  it('export a JSON Schema object per tool with descriptions', () => {
    const schemas = toolJsonSchemas();
    expect(schemas.map((s) => s.name)).toEqual(TOOL_NAMES);
    expect(TOOL_NAMES).toHaveLength(10);
    for (const s of schemas) {
      expect(s.description.length).toBeGreaterThan(10);
      expect(s.parameters.type).toBe('object');
      expect(s.parameters.additionalProperties).toBe(false);
    }
    const add = schemas[0].parameters as { required: string[]; properties: { gaussians: { items: { required: string[] } } } };
    expect(add.required).toEqual(['gaussians']);
    expect(add.properties.gaussians.items.required).toEqual(['pos', 'color']);
  });

  it('refuse arrays and objects written as JSON strings, saying so (the schema says array)', () => {
    const args = { gaussians: '[{"pos": [0.1, 0, 0], "color": [1, 0, 0]}]' };
    const r = TOOL_SCHEMAS.add_gaussians.safeParse(args);
    expect(r.success).toBe(false);
    if (!r.success) expect(formatIssues(r.error.issues, args)).toBe('gaussians: expected array, received a JSON string: send the array itself, not a string holding it');
    expect(TOOL_SCHEMAS.transform_group.safeParse({ group: 'legs', translate: '[0, -0.11, 0]' }).success).toBe(false);
    expect(TOOL_SCHEMAS.render_views.safeParse({ views: '[0, 1, 6, 7]' }).success).toBe(false);
    expect(TOOL_SCHEMAS.render_views.safeParse({ views: [0, 1, 6, 7] }).success).toBe(true);
  });

  it('reject unknown fields, NaN and wrong types with readable reasons', () => {
    // Shape errors come first; colour strings are checked by the episode after the shape check.
    const args = { gaussians: [{ pos: [0, 0, 0], color: '#cacc cb' }, { pos: [NaN, 0, 0], color: [1, 0, 0], rotation: [0, 0, 0] }] };
    const r = TOOL_SCHEMAS.add_gaussians.safeParse(args);
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(formatIssues(r.error.issues, args)).toBe("#1: pos[0]: expected number, received NaN; #1: unknown field 'rotation'");
    }
  });
});

describe('text formatting', () => {
  it('prints numbers like the seed, including -0.0', () => {
    expect(pyVec([-0.001, 0.51, -0.44])).toBe('[-0.0, 0.51, -0.44]');
    expect(pyFloat(0.4)).toBe('0.4');
    expect(pyFloat(2)).toBe('2.0');
    expect(budgetFooter({ gaussians: 74, maxGaussians: 300, callsLeft: 37, rendersLeft: 15 })).toBe('[74/300 Gaussians | calls left 37 | renders left 15]');
  });
});
