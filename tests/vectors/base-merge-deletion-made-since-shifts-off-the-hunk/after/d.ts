f(
) => T, U

next
