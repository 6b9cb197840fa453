/**
 * The browser script served in place of https://checkout.razorpay.com/v1/checkout.js. It defines
 * `window.Razorpay(options)` with `open()`, `close()` and `on("payment.failed", cb)`, shows a small
 * modal, and asks the stand-in (which holds the key secret) to record the payment and sign it.
 */
export function checkoutScript(origin: string): string {
  return `(function () {
  "use strict";
  var ORIGIN = ${JSON.stringify(origin)};
  function el(tag, style, text) {
    var e = document.createElement(tag);
    if (style) e.setAttribute("style", style);
    if (text) e.textContent = text;
    return e;
  }
  function money(amount, currency) {
    try { return new Intl.NumberFormat("en", { style: "currency", currency: currency }).format(amount / 100); }
    catch (e) { return (amount / 100).toFixed(2) + " " + currency; }
  }
  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    if (!options || !options.key) throw new Error("No key passed");
    this.options = options;
    this.listeners = {};
    this.root = null;
  }
  Razorpay.prototype.on = function (event, cb) {
    (this.listeners[event] = this.listeners[event] || []).push(cb);
    return this;
  };
  Razorpay.prototype.emit = function (event, data) {
    (this.listeners[event] || []).forEach(function (cb) { cb(data); });
  };
  Razorpay.prototype.close = function () {
    if (this.root && this.root.parentNode) this.root.parentNode.removeChild(this.root);
    this.root = null;
  };
  Razorpay.prototype.submit = function (outcome, status) {
    var self = this, o = this.options;
    status.textContent = "Processing...";
    fetch(ORIGIN + "/v1/checkout/pay", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key_id: o.key, order_id: o.order_id, outcome: outcome })
    }).then(function (r) { return r.json(); }).then(function (body) {
      self.close();
      if (body && body.razorpay_payment_id) { if (typeof o.handler === "function") o.handler(body); }
      else self.emit("payment.failed", body && body.error ? body : { error: { code: "BAD_REQUEST_ERROR", description: "Payment failed", metadata: {} } });
    }, function () {
      status.textContent = "Network error, please retry";
    });
  };
  Razorpay.prototype.open = function () {
    var self = this, o = this.options;
    var color = (o.theme && o.theme.color) || "#3399cc";
    var root = el("div", "position:fixed;inset:0;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;z-index:2147483647;font-family:system-ui,sans-serif");
    root.setAttribute("data-testid", "razorpay-sandbox-checkout");
    root.setAttribute("role", "dialog");
    root.setAttribute("aria-label", "Sandbox checkout");
    var card = el("div", "background:#fff;color:#111;border-radius:10px;width:340px;overflow:hidden;box-shadow:0 10px 40px rgba(0,0,0,.35)");
    var head = el("div", "background:" + color + ";color:#fff;padding:16px;position:relative");
    head.appendChild(el("div", "font-weight:600;font-size:16px", o.name || "Checkout"));
    head.appendChild(el("div", "font-size:13px;opacity:.9", o.description || ""));
    head.appendChild(el("div", "font-size:22px;font-weight:700;margin-top:8px", money(o.amount || 0, o.currency || "INR")));
    var x = el("button", "position:absolute;top:8px;right:10px;background:none;border:0;color:#fff;font-size:20px;cursor:pointer", "\\u00d7");
    x.setAttribute("aria-label", "Close checkout");
    head.appendChild(x);
    var body = el("div", "padding:16px;display:flex;flex-direction:column;gap:10px");
    body.appendChild(el("div", "font-size:12px;color:#a15c00;background:#fff4e0;padding:6px 8px;border-radius:6px", "Sandbox checkout: no real money moves."));
    body.appendChild(el("div", "font-size:12px;color:#555", "Order " + (o.order_id || "")));
    var pay = el("button", "background:" + color + ";color:#fff;border:0;border-radius:6px;padding:10px;font-size:15px;cursor:pointer", "Pay " + money(o.amount || 0, o.currency || "INR"));
    var fail = el("button", "background:#fff;color:#b00020;border:1px solid #b00020;border-radius:6px;padding:8px;cursor:pointer", "Fail payment");
    var status = el("div", "font-size:12px;color:#555;min-height:16px");
    status.setAttribute("role", "status");
    body.appendChild(pay); body.appendChild(fail); body.appendChild(status);
    card.appendChild(head); card.appendChild(body); root.appendChild(card);
    pay.onclick = function () { self.submit("success", status); };
    fail.onclick = function () { self.submit("failure", status); };
    x.onclick = function () { self.close(); if (o.modal && typeof o.modal.ondismiss === "function") o.modal.ondismiss(); };
    this.root = root;
    document.body.appendChild(root);
  };
  window.Razorpay = Razorpay;
})();
`;
}
