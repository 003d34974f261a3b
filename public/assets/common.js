/* Shared by the pages: the session (in sessionStorage, never in a URL or cookie) and API calls. */
'use strict';

(function () {
  var SESSION_KEY = 'finapi.session';
  var PENDING_KEY = 'finapi.passwordChange';
  var NOTICE_KEY = 'finapi.notice';

  function read(key) {
    try {
      var raw = window.sessionStorage.getItem(key);
      return raw ? JSON.parse(raw) : null;
    } catch (e) {
      return null;
    }
  }

  function write(key, value) {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, JSON.stringify(value));
  }

  function expired(entry) {
    return !entry || !entry.token || !entry.expiresAt || Date.parse(entry.expiresAt) <= Date.now();
  }

  /** The logged-in session: {token, expiresAt, login, name, userId, role, organization, permissions}. */
  function getSession() {
    var session = read(SESSION_KEY);
    if (session && expired(session)) {
      write(SESSION_KEY, null);
      return null;
    }
    return session;
  }

  /** Keeps the first membership of a successful login (its token is the top-level authorizationToken). */
  function saveSession(answer, login) {
    var member = (answer.members && answer.members[0]) || {};
    var session = {
      token: answer.authorizationToken.token,
      expiresAt: answer.authorizationToken.expiresAt,
      login: login,
      name: member.user ? member.user.name : login,
      userId: member.user ? member.user.id : null,
      role: member.role || '',
      organization: member.organization ? member.organization.name : '',
      permissions: member.permissions || [],
    };
    write(SESSION_KEY, session);
    write(PENDING_KEY, null);
    return session;
  }

  function clearSession() {
    write(SESSION_KEY, null);
    write(PENDING_KEY, null);
  }

  /** A token that may only change the password (after logging in with a temporary password). */
  function getPending() {
    var pending = read(PENDING_KEY);
    if (pending && expired(pending)) {
      write(PENDING_KEY, null);
      return null;
    }
    return pending;
  }

  function savePending(answer, login) {
    write(SESSION_KEY, null);
    write(PENDING_KEY, { token: answer.authorizationToken.token, expiresAt: answer.authorizationToken.expiresAt, login: login });
  }

  /**
   * Calls the API. Resolves {ok, status, body} for every HTTP answer; a network failure resolves
   * {ok: false, status: 0, body: null}, so callers always have something to tell the person.
   */
  function api(method, path, body, token) {
    var headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = 'Bearer ' + token;
    return window
      .fetch('/api/v1' + path, {
        method: method,
        headers: headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      })
      .then(function (response) {
        return response.text().then(function (text) {
          var parsed = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch (e) {
            parsed = null;
          }
          return { ok: response.ok, status: response.status, body: parsed };
        });
      })
      .catch(function () {
        return { ok: false, status: 0, body: null };
      });
  }

  function errorCode(result) {
    return result && result.body && typeof result.body.code === 'string' ? result.body.code : '';
  }

  /** A sentence a person understands for any failed call. */
  function describeFailure(result) {
    var code = errorCode(result);
    if (result.status === 0) return 'The service cannot be reached. Check your connection and try again.';
    if (code === 'exception.authorization.invalid_credentials') return 'Wrong login or password. Check them and try again.';
    if (code === 'exception.authorization.user_on_hold')
      return 'Your account is On Hold after too many failed login attempts, and no password is accepted until it is released. Contact an administrator to release it.';
    if (code === 'exception.authorization.temporary_password_expired')
      return 'Your temporary password has expired or was already used. Ask an administrator to release your account again.';
    if (code === 'exception.authorization.no_membership') return 'Your account belongs to no organization yet. Contact an administrator.';
    if (result.status === 401) return 'Your session has ended. Please log in again.';
    if (result.status === 403) return 'You are not permitted to do this.';
    if (result.status === 429) return 'Too many attempts. Wait a minute, then try again.';
    if (result.status >= 500) return 'Something went wrong on our side. Try again in a moment.';
    if (result.body && typeof result.body.message === 'string') return result.body.message;
    return 'The request failed (HTTP ' + result.status + ').';
  }

  function formatTime(iso) {
    var date = new Date(iso);
    if (isNaN(date.getTime())) return iso;
    return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }

  /** Shows a message in a live region: kind is 'error', 'info' or 'warn'. */
  function showMessage(element, kind, text) {
    element.className = 'message ' + kind;
    element.textContent = text;
  }

  function clearMessage(element) {
    element.className = 'message';
    element.textContent = '';
  }

  /** Revokes the token (best effort: the session is forgotten whatever the answer). */
  function logout(token) {
    var done = token ? api('DELETE', '/authorization', undefined, token) : Promise.resolve(null);
    return done.then(function () {
      clearSession();
    });
  }

  /** A message for the next page this tab opens (after a redirect), shown once. */
  function setNotice(text) {
    write(NOTICE_KEY, text);
  }

  function takeNotice() {
    var text = read(NOTICE_KEY);
    write(NOTICE_KEY, null);
    return typeof text === 'string' ? text : null;
  }

  function hasPermission(session, permission) {
    return !!session && Array.isArray(session.permissions) && session.permissions.indexOf(permission) !== -1;
  }

  window.finapi = {
    api: api,
    errorCode: errorCode,
    describeFailure: describeFailure,
    formatTime: formatTime,
    showMessage: showMessage,
    clearMessage: clearMessage,
    getSession: getSession,
    saveSession: saveSession,
    clearSession: clearSession,
    getPending: getPending,
    savePending: savePending,
    logout: logout,
    hasPermission: hasPermission,
    setNotice: setNotice,
    takeNotice: takeNotice,
  };
})();
