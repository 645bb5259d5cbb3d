describe('a', () => {
  it('x', () => {
    expect(1)
  })
  it('z', () => {})
})
