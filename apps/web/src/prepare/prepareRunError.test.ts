import { describe, expect, it } from 'vitest';
import { prepareRunError } from './prepareRunError';

describe('prepareRunError', () => {
  it('says a run that succeeded recovered from its error, and a failed one failed with it', () => {
    expect(prepareRunError('success', 'rate_limit_exceeded')).toEqual({
      errorType: 'rate_limit_exceeded',
      recovered: true,
      errorLabel: 'Recovered from',
    });
    expect(prepareRunError('failure', 'ToolTimeout')).toEqual({
      errorType: 'ToolTimeout',
      recovered: false,
      errorLabel: 'Failed with',
    });
    expect(prepareRunError('incomplete', 'ToolTimeout')).toEqual({
      errorType: 'ToolTimeout',
      recovered: false,
      errorLabel: 'Error so far',
    });
  });

  it('shows nothing for a run that met no error', () => {
    expect(prepareRunError('success', '')).toEqual({ errorType: '', recovered: false, errorLabel: '' });
    expect(prepareRunError('failure', '')).toEqual({ errorType: '', recovered: false, errorLabel: '' });
  });
});
