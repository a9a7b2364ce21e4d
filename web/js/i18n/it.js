// The client's words in Italian (filled in by the next change).
export default {
  code: 'it',
  name: 'Italiano',
  strings: {},
  powers: {},
};
