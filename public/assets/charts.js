/* Small bar charts drawn as SVG with the DOM (no library, no inline style: the pages' CSP allows neither). */
'use strict';

(function () {
  var SVG = 'http://www.w3.org/2000/svg';

  function el(name, attributes, text) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attributes || {}).forEach(function (key) {
      node.setAttribute(key, String(attributes[key]));
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /**
   * A bar chart of `points` ([{label, value}]) with a title, labelled axes and a text alternative:
   * each bar carries a <title> (its label and value) and the chart an aria-label summing it up.
   */
  function barChart(title, points, options) {
    options = options || {};
    var width = 640;
    var height = 220;
    var left = 56;
    var bottom = 40;
    var top = 16;
    var max = points.reduce(function (m, p) {
      return Math.max(m, p.value);
    }, 0);
    var scaleMax = max > 0 ? max : 1;
    var plotWidth = width - left - 8;
    var plotHeight = height - top - bottom;
    var slot = plotWidth / Math.max(points.length, 1);
    var svg = el('svg', {
      viewBox: '0 0 ' + width + ' ' + height,
      role: 'img',
      class: 'chart',
      'aria-label':
        title +
        ': ' +
        points
          .map(function (p) {
            return p.label + ' ' + p.text;
          })
          .join(', '),
    });
    svg.appendChild(el('title', {}, title));
    svg.appendChild(el('line', { x1: left, y1: top + plotHeight, x2: width - 8, y2: top + plotHeight, class: 'axis' }));
    svg.appendChild(el('line', { x1: left, y1: top, x2: left, y2: top + plotHeight, class: 'axis' }));
    if (max > 0)
      svg.appendChild(
        el('text', { x: left - 6, y: top + 10, class: 'tick', 'text-anchor': 'end' }, options.format ? options.format(max) : String(max)),
      );
    svg.appendChild(el('text', { x: left - 6, y: top + plotHeight, class: 'tick', 'text-anchor': 'end' }, '0'));
    points.forEach(function (p, i) {
      var h = (p.value / scaleMax) * plotHeight;
      var bar = el('rect', {
        x: left + i * slot + slot * 0.15,
        y: top + plotHeight - h,
        width: Math.max(slot * 0.7, 1),
        height: Math.max(h, p.value > 0 ? 1 : 0),
        class: 'bar' + (options.kind ? ' ' + options.kind : ''),
      });
      bar.appendChild(el('title', {}, p.label + ': ' + p.text));
      svg.appendChild(bar);
      if (points.length <= 16 || i % Math.ceil(points.length / 16) === 0) {
        svg.appendChild(
          el(
            'text',
            { x: left + i * slot + slot / 2, y: height - bottom + 16, class: 'tick', 'text-anchor': 'middle' },
            p.short || p.label,
          ),
        );
      }
    });
    var figure = document.createElement('figure');
    figure.className = 'chart';
    var caption = document.createElement('figcaption');
    caption.textContent = title;
    figure.appendChild(caption);
    figure.appendChild(svg);
    return figure;
  }

  window.finapiCharts = { barChart: barChart };
})();
