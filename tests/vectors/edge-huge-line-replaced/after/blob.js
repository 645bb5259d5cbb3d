header
const BLOB = "";
footer = 1
