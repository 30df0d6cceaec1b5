/* A form with data-confirm asks before it is sent (the CSP forbids inline onsubmit handlers). */
document.addEventListener("submit", function (evt) {
  var form = evt.target;
  var text = form.getAttribute && form.getAttribute("data-confirm");
  if (text && !window.confirm(text)) evt.preventDefault();
});
