import { describe, expect, it } from 'vitest';
import { describeAgent } from './visitor-agent.js';

describe(describeAgent.name, () => {
  it('names the browser, system and device of a person', () => {
    expect(
      describeAgent(
        'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', os: 'iOS', device: 'tablet', automated: false });
    expect(
      describeAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome', os: 'Windows', device: 'desktop', automated: false });
  });

  it.each([
    'curl/8.5.0',
    'python-requests/2.31.0',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    '',
    undefined,
  ])('marks %s as automated', (agent) => {
    expect(describeAgent(agent).automated).toBe(true);
  });
});
