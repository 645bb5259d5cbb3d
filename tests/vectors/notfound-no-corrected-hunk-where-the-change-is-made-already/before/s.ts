it('keeps the state', async () => {
  const storage = {
    setItem: () => {},
  }
  const spy = jest.fn()

  const useStore = create(
    persist(() => ({ count: 0 }), {
      name: 'test-storage',
      getStorage: () => storage,
    })
  )
})

it('migrates the state', async () => {
  const storage = {
    setItem: setItemSpy,
  }

  const useStore = create<any>(
    persist(() => ({ count: 0 }), {
      name: 'migrated-storage',
      version: 13,
      migrate: migrateSpy,
      partialize: (s) => s,
      getStorage: () => storage,
    })
  )
})
