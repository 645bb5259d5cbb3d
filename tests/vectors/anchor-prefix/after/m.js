function sub(a, b) {
  return a - b
}
function add(a, b) {
  return a + b
}
