/* The login page: log in, change a temporary password, see who is logged in, log out. */
'use strict';

(function () {
  var f = window.finapi;
  var $ = function (id) {
    return document.getElementById(id);
  };

  var message = $('message');
  var views = { login: $('login-view'), change: $('change-view'), session: $('session-view') };
  var loginForm = $('login-form');
  var loginInput = $('login');
  var passwordInput = $('password');
  var loginButton = $('login-submit');
  var changeForm = $('change-form');
  var currentInput = $('current-password');
  var newInput = $('new-password');
  var repeatInput = $('repeat-password');
  var changeButton = $('change-submit');
  var expiryTimer = null;

  function show(name) {
    Object.keys(views).forEach(function (key) {
      views[key].hidden = key !== name;
    });
    if (expiryTimer) {
      window.clearTimeout(expiryTimer);
      expiryTimer = null;
    }
  }

  function busy(button, label) {
    if (!button.dataset.label) button.dataset.label = button.textContent;
    button.disabled = label !== null;
    button.textContent = label === null ? button.dataset.label : label;
  }

  function markInvalid(inputs, invalid) {
    inputs.forEach(function (input) {
      if (invalid.indexOf(input) !== -1) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    });
  }

  function roleLabel(role) {
    var text = String(role || '').replace(/_/g, ' ');
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : 'None';
  }

  function showLogin(kind, text) {
    show('login');
    loginForm.reset();
    markInvalid([loginInput, passwordInput], []);
    if (text) f.showMessage(message, kind, text);
    else f.clearMessage(message);
    loginInput.focus();
  }

  function showChange(pending, temporaryPassword) {
    show('change');
    changeForm.reset();
    markInvalid([currentInput, newInput, repeatInput], []);
    if (temporaryPassword) {
      currentInput.value = temporaryPassword;
      newInput.focus();
    } else {
      currentInput.focus();
    }
    expireAt(pending.expiresAt);
  }

  function showSession(session) {
    show('session');
    $('session-user').textContent = session.name + (session.login ? ' (' + session.login + ')' : '');
    $('session-role').textContent = roleLabel(session.role);
    $('session-organization').textContent = session.organization || '—';
    var expiry = $('session-expiry');
    expiry.dateTime = session.expiresAt;
    expiry.textContent = f.formatTime(session.expiresAt);
    $('console-link').hidden = !f.hasPermission(session, 'USER_VIEWER');
    $('session-title').setAttribute('tabindex', '-1');
    $('session-title').focus();
    expireAt(session.expiresAt);
  }

  /** When the token runs out, the page says so and returns to the form. */
  function expireAt(iso) {
    var remaining = Date.parse(iso) - Date.now();
    if (!(remaining > 0)) return;
    expiryTimer = window.setTimeout(
      function () {
        f.clearSession();
        showLogin('warn', 'Your session has expired. Please log in again.');
      },
      Math.min(remaining, 2147483647),
    );
  }

  loginForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var login = loginInput.value.trim();
    var password = passwordInput.value;
    var missing = [];
    if (!login) missing.push(loginInput);
    if (!password) missing.push(passwordInput);
    markInvalid([loginInput, passwordInput], missing);
    if (missing.length) {
      f.showMessage(message, 'error', 'Enter your login and your password.');
      missing[0].focus();
      return;
    }
    f.clearMessage(message);
    busy(loginButton, 'Logging in…');
    f.api('POST', '/authorization', { login: login, password: password }).then(function (result) {
      busy(loginButton, null);
      if (result.ok && result.body && result.body.action === 'PASSWORD_CHANGE_REQUIRED') {
        f.savePending(result.body, login.toLowerCase());
        showChange(f.getPending(), password);
        f.showMessage(message, 'warn', 'An administrator reset your password. Choose a new password to continue.');
        return;
      }
      if (result.ok && result.body && result.body.authorizationToken) {
        var session = f.saveSession(result.body, login.toLowerCase());
        showSession(session);
        f.showMessage(message, 'info', 'Welcome, ' + session.name + '.');
        return;
      }
      passwordInput.value = '';
      var code = f.errorCode(result);
      markInvalid([loginInput, passwordInput], code === 'exception.authorization.invalid_credentials' ? [loginInput, passwordInput] : []);
      f.showMessage(message, code === 'exception.authorization.user_on_hold' ? 'warn' : 'error', f.describeFailure(result));
      passwordInput.focus();
    });
  });

  changeForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var pending = f.getPending();
    if (!pending) {
      showLogin('error', 'The time to change your password has run out. Log in again with your temporary password.');
      return;
    }
    var current = currentInput.value;
    var next = newInput.value;
    var bytes = new TextEncoder().encode(next).length;
    var problem = null;
    var invalid = [];
    if (!current) {
      problem = 'Enter your temporary password.';
      invalid = [currentInput];
    } else if (bytes < 8 || bytes > 72) {
      problem = 'The new password must be 8 to 72 characters long.';
      invalid = [newInput];
    } else if (next === current) {
      problem = 'The new password must differ from the temporary password.';
      invalid = [newInput];
    } else if (repeatInput.value !== next) {
      problem = 'The two new passwords do not match. Type the same password twice.';
      invalid = [repeatInput];
    }
    markInvalid([currentInput, newInput, repeatInput], invalid);
    if (problem) {
      f.showMessage(message, 'error', problem);
      invalid[0].focus();
      return;
    }
    f.clearMessage(message);
    busy(changeButton, 'Changing…');
    f.api('POST', '/authorization/password', { currentPassword: current, newPassword: next }, pending.token).then(function (result) {
      busy(changeButton, null);
      if (result.ok && result.body && result.body.authorizationToken) {
        var session = f.saveSession(result.body, pending.login);
        showSession(session);
        f.showMessage(message, 'info', 'Your password has been changed. You are logged in.');
        return;
      }
      if (result.status === 401) {
        f.clearSession();
        showLogin('error', 'The time to change your password has run out. Ask an administrator to release your account again.');
        return;
      }
      var fields = (result.body && Array.isArray(result.body.errors) ? result.body.errors : []).map(function (e) {
        return e && e.parameter;
      });
      if (f.errorCode(result) === 'exception.password.reused') {
        markInvalid([currentInput, newInput, repeatInput], [newInput]);
        f.showMessage(message, 'error', 'You have used this password recently. Choose one that is not one of your last 5 passwords.');
        newInput.focus();
      } else if (fields.indexOf('currentPassword') !== -1) {
        markInvalid([currentInput, newInput, repeatInput], [currentInput]);
        f.showMessage(message, 'error', 'The temporary password is not right. Type it exactly as the administrator gave it.');
        currentInput.focus();
      } else if (fields.indexOf('newPassword') !== -1) {
        markInvalid([currentInput, newInput, repeatInput], [newInput]);
        f.showMessage(message, 'error', 'Choose another new password: 8 to 72 characters, different from the temporary one.');
        newInput.focus();
      } else {
        f.showMessage(message, 'error', f.describeFailure(result));
      }
    });
  });

  $('change-cancel').addEventListener('click', function () {
    var pending = f.getPending();
    f.logout(pending && pending.token).then(function () {
      showLogin('info', 'You have logged out. Your temporary password has been used; ask an administrator for a new one.');
    });
  });

  $('logout').addEventListener('click', function () {
    var session = f.getSession();
    busy($('logout'), 'Logging out…');
    f.logout(session && session.token).then(function () {
      busy($('logout'), null);
      showLogin('info', 'You have logged out.');
    });
  });

  // On load: resume a password change or a session kept in this tab, after checking it still works.
  var pending = f.getPending();
  var session = f.getSession();
  if (pending) {
    showChange(pending, null);
    f.showMessage(message, 'warn', 'Choose a new password to continue.');
  } else if (session) {
    showSession(session);
    f.api('GET', '/profiles/my', undefined, session.token).then(function (result) {
      if (result.status === 401) {
        f.clearSession();
        showLogin('warn', 'Your session has ended. Please log in again.');
      } else if (result.ok && result.body) {
        session.login = result.body.user.login;
        session.name = result.body.user.name;
        session.role = result.body.role;
        session.organization = result.body.organization ? result.body.organization.name : session.organization;
        session.permissions = result.body.permissions || [];
        window.sessionStorage.setItem('finapi.session', JSON.stringify(session));
        showSession(session);
      }
    });
  } else {
    var notice = f.takeNotice();
    showLogin(notice ? 'info' : null, notice);
  }
})();
