import { expect, test } from 'vitest';
import { ALERT_RULE_KINDS } from './values.js';
import { ALERT_RULE_PARAMS, ALERT_RULE_PARAM_KEYS } from './alerts.js';

test('the zod-free parameter keys (what adops checks --param against) are the schemas’ keys, in order', () => {
  for (const kind of ALERT_RULE_KINDS) expect(ALERT_RULE_PARAM_KEYS[kind], kind).toEqual(Object.keys(ALERT_RULE_PARAMS[kind].shape));
});
