function flush(pending) {
  let error
  for (const fn of pending) {
    try {
      fn()
    } catch (e) {
      if (!error) {
        error = e
      }
    }
  }
}
