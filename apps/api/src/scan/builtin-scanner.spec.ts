import { describe, expect, it } from 'vitest';
import { BuiltinScanner, EICAR_SIGNATURE, EICAR_TEST_STRING } from './builtin-scanner.js';

describe(BuiltinScanner.name, () => {
  const sut = new BuiltinScanner();

  it('flags the EICAR test string anywhere in the content', async () => {
    expect(EICAR_TEST_STRING).toHaveLength(68);
    await expect(sut.scan(Buffer.from(`<p>${EICAR_TEST_STRING}</p>`))).resolves.toEqual({
      infected: true,
      signature: EICAR_SIGNATURE,
    });
  });

  it('passes anything else', async () => {
    await expect(sut.scan(Buffer.from('EICAR-STANDARD-ANTIVIRUS-TEST-FILE alone is not the test file'))).resolves.toEqual({
      infected: false,
    });
  });
});
