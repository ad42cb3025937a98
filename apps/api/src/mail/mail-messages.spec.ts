import { describe, expect, it } from 'vitest';
import { codeMessage, registrationAttemptMessage } from './mail-messages.js';

describe(codeMessage.name, () => {
  it('carries the code in both parts and both languages, and what it is for', () => {
    const sut = codeMessage('sign-in', '042917', 'https://share.example.com', 10);
    expect(sut.subject).toBe('登录验证码 / Sign-in code · share.example.com');
    expect(sut.text.match(/^042917$/gm)).toHaveLength(2);
    expect(sut.text).toContain('你的登录验证码（share.example.com）');
    expect(sut.text).toContain('Your sign-in code (share.example.com)');
    expect(sut.text).toContain('10 分钟内有效');
    expect(sut.text).toContain('valid for 10 minutes');
    expect(sut.html.match(/>042917</g)).toHaveLength(2);
  });

  it('says what each purpose is for', () => {
    expect(codeMessage('verify', '000001', 'http://127.0.0.1:8080', 10).subject).toContain('Verify your e-mail address');
    expect(codeMessage('reset', '000001', 'http://127.0.0.1:8080', 10).subject).toContain('Password reset code');
  });

  it('escapes what goes into the HTML part', () => {
    const sut = codeMessage('sign-in', '<b>1</b>', 'http://127.0.0.1:8080', 10);
    expect(sut.html).not.toContain('<b>1</b>');
    expect(sut.html).toContain('&lt;b&gt;1&lt;/b&gt;');
  });
});

describe(registrationAttemptMessage.name, () => {
  it('tells the owner to sign in or reset the password, and carries no code', () => {
    const sut = registrationAttemptMessage('https://share.example.com');
    expect(sut.subject).toBe('注册尝试 / Registration attempt · share.example.com');
    expect(sut.text).toContain('https://share.example.com/login');
    expect(sut.text).toContain('忘记密码');
    expect(sut.text).toContain('Forgot password');
    expect(sut.text).not.toMatch(/\d{6}/);
    expect(sut.html).toContain('<hr>');
  });
});
