/* The dashboard: volumes per day and currency, open holds, failed logins, webhook failures (GET /api/v1/dashboard). */
'use strict';

(function () {
  var f = window.finapi;
  var charts = window.finapiCharts;
  var $ = function (id) {
    return document.getElementById(id);
  };
  var DAYS = 14;
  var message = $('message');
  var session = f.getSession();

  function only(id) {
    ['anonymous-view', 'forbidden-view', 'dashboard-view'].forEach(function (view) {
      $(view).hidden = view !== id;
    });
  }

  function days(from, count) {
    var start = Date.parse(from + 'T00:00:00Z');
    var out = [];
    for (var i = 0; i < count; i++) out.push(new Date(start + i * 86400000).toISOString().slice(0, 10));
    return out;
  }

  function empty(container, text) {
    var p = document.createElement('p');
    p.className = 'muted';
    p.textContent = text;
    container.appendChild(p);
  }

  function render(answer) {
    $('range').textContent = answer.from + ' to ' + answer.to;
    var dates = days(answer.from, DAYS);
    var volumes = $('volumes');
    volumes.textContent = '';
    var currencies = [];
    answer.volumes.forEach(function (v) {
      if (currencies.indexOf(v.currency) === -1) currencies.push(v.currency);
    });
    if (!currencies.length) empty(volumes, 'No operations in these days.');
    currencies.forEach(function (currency) {
      var points = dates.map(function (date) {
        var found = answer.volumes.filter(function (v) {
          return v.currency === currency && v.date === date;
        })[0];
        var value = found ? Number(found.amount) : 0;
        return {
          label: date,
          short: date.slice(5),
          value: value,
          text: found ? found.amount + ' ' + currency + ' in ' + found.operations + ' operations' : '0 ' + currency,
        };
      });
      volumes.appendChild(charts.barChart('Volume in ' + currency, points));
    });

    var holds = $('holds');
    holds.textContent = '';
    if (!answer.openHolds.length) empty(holds, 'No open holds.');
    else
      holds.appendChild(
        charts.barChart(
          'Open holds by currency (count)',
          answer.openHolds.map(function (h) {
            return { label: h.currency, value: h.holds, text: h.holds + ' holds, ' + h.amount + ' ' + h.currency };
          }),
          { kind: 'hold' },
        ),
      );

    [
      ['logins', 'Failed logins', answer.failedLogins, 'warn'],
      ['webhooks', 'Webhook deliveries given up', answer.webhookFailures, 'error'],
    ].forEach(function (spec) {
      var container = $(spec[0]);
      container.textContent = '';
      container.appendChild(
        charts.barChart(
          spec[1],
          spec[2].map(function (d) {
            return { label: d.date, short: d.date.slice(5), value: d.count, text: String(d.count) };
          }),
          { kind: spec[3] },
        ),
      );
    });
  }

  function load() {
    f.api('GET', '/dashboard?days=' + DAYS, undefined, session.token).then(function (result) {
      if (result.status === 401) {
        f.clearSession();
        only('anonymous-view');
        f.showMessage(message, 'warn', 'Your session has ended. Please log in again.');
        return;
      }
      if (!result.ok) {
        f.showMessage(message, 'error', f.describeFailure(result));
        return;
      }
      f.clearMessage(message);
      render(result.body);
    });
  }

  $('refresh').addEventListener('click', load);
  $('logout').addEventListener('click', function () {
    f.logout(session && session.token).then(function () {
      f.setNotice('You have logged out.');
      window.location.assign('/login');
    });
  });

  $('days').textContent = String(DAYS);
  if (!session) {
    only('anonymous-view');
    f.showMessage(message, 'warn', 'You are not logged in.');
    return;
  }
  $('who').textContent = 'Logged in as ' + session.login;
  $('who').hidden = false;
  $('logout').hidden = false;
  if (!f.hasPermission(session, 'DASHBOARD_VIEWER')) {
    only('forbidden-view');
    $('forbidden-text').textContent = 'Your role (' + (session.role || 'none') + ') may not see the dashboard. It is for administrators.';
    f.showMessage(message, 'error', 'Not permitted: the dashboard is for administrators.');
    return;
  }
  only('dashboard-view');
  load();
})();
