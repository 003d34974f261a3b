/* The administrator's console: users On Hold, search by login, release with a temporary password. */
'use strict';

(function () {
  var f = window.finapi;
  var $ = function (id) {
    return document.getElementById(id);
  };
  var PAGE_SIZE = 25;

  var message = $('message');
  var state = { page: 0, login: '', totalPages: 0 };
  var session = f.getSession();

  function only(id) {
    ['anonymous-view', 'forbidden-view', 'console-view'].forEach(function (view) {
      $(view).hidden = view !== id;
    });
  }

  function sessionEnded() {
    f.clearSession();
    only('anonymous-view');
    $('who').hidden = true;
    $('logout').hidden = true;
    f.showMessage(message, 'warn', 'Your session has ended. Please log in again.');
  }

  function notPermitted(text) {
    only('forbidden-view');
    if (text) $('forbidden-text').textContent = text;
    f.showMessage(message, 'error', 'Not permitted: this console is for administrators.');
  }

  function cell(row, label, text, className) {
    var td = document.createElement('td');
    td.setAttribute('data-label', label);
    if (className) td.className = className;
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function render(answer) {
    var body = $('users');
    body.textContent = '';
    var records = answer.records || [];
    var canRelease = f.hasPermission(session, 'USER_RELEASER');
    $('action-header').textContent = canRelease ? 'Action' : '';
    records.forEach(function (user) {
      var row = document.createElement('tr');
      cell(row, 'Login', user.login);
      cell(row, 'Name', user.name);
      cell(row, 'Failed attempts', String(user.failedAttempts), 'num');
      var since = cell(row, 'On Hold since', '');
      var time = document.createElement('time');
      time.dateTime = user.heldAt ?? user.updatedAt;
      time.textContent = f.formatTime(user.heldAt ?? user.updatedAt);
      since.appendChild(time);
      var action = cell(row, 'Action', '');
      if (canRelease) {
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Release';
        button.setAttribute('aria-label', 'Release ' + user.login);
        button.addEventListener('click', function () {
          release(user, button);
        });
        action.appendChild(button);
      }
      body.appendChild(row);
    });
    state.totalPages = answer.totalPages || 0;
    var total = answer.totalRecords || 0;
    $('users-table').hidden = records.length === 0;
    var filtered = state.login ? ' matching “' + state.login + '”' : '';
    $('summary').textContent =
      total === 0 ? 'No users On Hold' + filtered + '.' : total + (total === 1 ? ' user' : ' users') + ' On Hold' + filtered + '.';
    $('pager').hidden = state.totalPages <= 1;
    $('page-info').textContent = 'Page ' + (state.page + 1) + ' of ' + Math.max(state.totalPages, 1);
    $('previous').disabled = state.page <= 0;
    $('next').disabled = state.page + 1 >= state.totalPages;
  }

  function load() {
    var filter = { statuses: ['on_hold'] };
    if (state.login) filter.login = state.login;
    $('summary').textContent = 'Loading…';
    return f
      .api('POST', '/users/view', { pageNumber: state.page, pageSize: PAGE_SIZE, filter: filter, sort: { login: 'asc' } }, session.token)
      .then(function (result) {
        if (result.status === 401) return sessionEnded();
        if (result.status === 403) return notPermitted();
        if (!result.ok || !result.body) {
          $('summary').textContent = '';
          f.showMessage(message, 'error', f.describeFailure(result));
          return;
        }
        render(result.body);
      });
  }

  function release(user, button) {
    button.disabled = true;
    button.textContent = 'Releasing…';
    f.api('POST', '/users/' + encodeURIComponent(user.id) + '/release', undefined, session.token).then(function (result) {
      if (result.status === 401) return sessionEnded();
      if (result.ok && result.body && result.body.temporaryPassword) {
        $('released-user').textContent = user.name + ' (' + user.login + ')';
        $('temporary-password').textContent = result.body.temporaryPassword;
        var expiry = $('temporary-expiry');
        expiry.dateTime = result.body.expiresAt;
        expiry.textContent = f.formatTime(result.body.expiresAt);
        $('released').hidden = false;
        $('released-title').focus();
        f.showMessage(message, 'info', user.login + ' has been released. Their temporary password is shown below, once.');
        load();
        return;
      }
      button.disabled = false;
      button.textContent = 'Release';
      if (f.errorCode(result) === 'exception.user.not_on_hold') {
        f.showMessage(message, 'warn', user.login + ' is no longer On Hold; the list has been refreshed.');
        load();
      } else if (result.status === 403) {
        f.showMessage(message, 'error', 'Not permitted: your role may not release users.');
      } else {
        f.showMessage(message, 'error', 'Could not release ' + user.login + ': ' + f.describeFailure(result));
      }
    });
  }

  function hidePassword() {
    $('temporary-password').textContent = '';
    $('released-user').textContent = '';
    $('released').hidden = true;
  }

  $('copy-password').addEventListener('click', function () {
    var text = $('temporary-password').textContent;
    var copied = function () {
      f.showMessage(message, 'info', 'The temporary password has been copied to the clipboard.');
    };
    var fallback = function () {
      var range = document.createRange();
      range.selectNodeContents($('temporary-password'));
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      var ok = false;
      try {
        ok = document.execCommand('copy');
      } catch (e) {
        ok = false;
      }
      if (ok) copied();
      else f.showMessage(message, 'warn', 'Copying is not allowed here: the password is selected, press Ctrl+C (or ⌘C) to copy it.');
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(copied, fallback);
    else fallback();
  });

  $('dismiss-password').addEventListener('click', function () {
    hidePassword();
    f.clearMessage(message);
    $('search').focus();
  });

  $('search-form').addEventListener('submit', function (event) {
    event.preventDefault();
    state.login = $('search').value.trim();
    state.page = 0;
    f.clearMessage(message);
    load();
  });

  $('refresh').addEventListener('click', function () {
    f.clearMessage(message);
    load();
  });

  $('previous').addEventListener('click', function () {
    if (state.page > 0) {
      state.page -= 1;
      load();
    }
  });

  $('next').addEventListener('click', function () {
    if (state.page + 1 < state.totalPages) {
      state.page += 1;
      load();
    }
  });

  $('logout').addEventListener('click', function () {
    f.logout(session && session.token).then(function () {
      f.setNotice('You have logged out.');
      window.location.assign('/login');
    });
  });

  if (!session) {
    only('anonymous-view');
    f.showMessage(message, 'warn', 'You are not logged in.');
    return;
  }
  $('who').textContent = 'Logged in as ' + session.login;
  $('who').hidden = false;
  $('logout').hidden = false;
  if (!f.hasPermission(session, 'USER_VIEWER')) {
    notPermitted(
      'Your role (' +
        (session.role || 'none') +
        ') may not see or release users. Only administrators and support staff can use this console.',
    );
    return;
  }
  only('console-view');
  load();
})();
