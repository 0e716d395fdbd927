package tensor

// KernelSetNames returns the names of the transposing kernel sets this CPU runs, best first, and
// "portable" last.
func KernelSetNames() []string {
	var names []string
	for _, k := range kernelSets {
		names = append(names, k.name)
	}
	return append(names, "portable")
}

// UseKernels makes copies use the kernel set of that name ("portable": none) until restore is
// called. Not safe for concurrent use with copies.
func UseKernels(name string) (restore func()) {
	saved := kernels
	kernels = nil
	for _, k := range kernelSets {
		if k.name == name {
			kernels = k
		}
	}
	return func() { kernels = saved }
}
