/**
 * Keeps secrets that travel inside URLs and git messages out of what a model reads and what we
 * log: the user info of a URL, query parameters named like credentials, and tokens recognisable
 * by their prefix wherever they appear.
 */

/** Query parameter names that carry a credential (`?private_token=`, `&sig=`, `?X-Amz-Signature=`). */
const SECRET_PARAMETER = /^(?:.*token|.*secret|.*password|passwd|pwd|.*api[-_]?key|key|auth|authorization|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|code|client_secret)$/i;

/**
 * Tokens known by their shape: GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`),
 * GitLab (`glpat-`, `gldt-`...), Slack (`xox?-`), npm (`npm_`), AWS access key ids, OpenAI-style
 * and Anthropic keys (`sk-`), Google API keys (`AIza`), Hugging Face (`hf_`).
 */
const TOKEN_SHAPES =
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|gl(?:pat|dt|rt|cbt|ptt|ft)-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|npm_[A-Za-z0-9]{30,}|(?:AKIA|ASIA)[A-Z0-9]{16}|sk-[A-Za-z0-9_-]{20,}|AIza[A-Za-z0-9_-]{30,}|hf_[A-Za-z0-9]{30,})\b/g;

const REDACTED = '***';

/**
 * One URL with its credentials replaced: `https://user:token@host/x` → `https://user:***@host/x`;
 * an http(s) user name alone is a token too (`https://ghp_xxx@github.com/o/r` → `https://***@…`),
 * while `ssh://git@host` keeps its user; the user info ends at the authority's last `@` (a
 * password may hold an unencoded `@`). Query parameters named like secrets lose their value.
 */
export function redactUrl(url: string): string {
  return redactTokens(redactQuery(redactUserInfo(url)));
}

/**
 * Every URL and known token shape inside a free text (a git error message, a log line), each
 * redacted as redactUrl does.
 */
export function redactSecrets(text: string): string {
  return redactTokens(text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, (url) => redactQuery(redactUserInfo(url))));
}

function redactUserInfo(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i.exec(url);
  if (match === null) {
    return url;
  }
  const scheme = match[1] ?? '';
  const userinfo = match[2] ?? '';
  const colon = userinfo.indexOf(':');
  const redacted = colon !== -1 ? `${userinfo.slice(0, colon)}:${REDACTED}` : /^https?:/i.test(scheme) ? REDACTED : userinfo;
  return `${scheme}${redacted}@${url.slice(match[0].length)}`;
}

function redactQuery(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) {
    return url;
  }
  const hash = url.indexOf('#', query);
  const end = hash === -1 ? url.length : hash;
  const parameters = url
    .slice(query + 1, end)
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      const name = equals === -1 ? parameter : parameter.slice(0, equals);
      return equals !== -1 && SECRET_PARAMETER.test(decodeName(name)) ? `${name}=${REDACTED}` : parameter;
    });
  return `${url.slice(0, query + 1)}${parameters.join('&')}${url.slice(end)}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function redactTokens(text: string): string {
  return text.replace(TOKEN_SHAPES, REDACTED);
}
