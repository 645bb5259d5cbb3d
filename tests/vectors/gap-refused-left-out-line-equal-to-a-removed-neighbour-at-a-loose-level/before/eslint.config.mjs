export default tseslint.config(
  {
    rules: {
      'vitest/consistent-test-it': [
        'error',
        { fn: 'it' },
      ],
    },
  },
)
