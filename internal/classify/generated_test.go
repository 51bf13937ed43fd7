package classify

import "testing"

func TestIsAutoName(t *testing.T) {
	tests := []struct {
		name, value, stack, logical string
		want                        bool
	}{
		{"stack-logical-random", "MyStack-QueueABC12345-JVro9NWZxliC", "MyStack", "QueueABC12345", true},
		{"logical-random", "Pool88FC4FF9F-jVGU9rNojAd7", "", "Pool88FC4FF9F", true},
		{"logical_random", "IdPool_r5WzZ9554da2", "", "IdPool", true},
		{"truncated stack and logical", "MyStac-Queue-KHO9JpXWBV8y", "MyStack", "QueueABC12345", true},
		{"another resource of the same stack", "MyStack-SgD4954771-OOLlldBndUMd", "MyStack", "Ingress", true},
		{"another stack's name", "OtherStack-SgD4954771-OOLlldBndUMd", "MyStack", "Sg", false},
		{"no random suffix", "MyStack-Queue", "MyStack", "Queue", false},
		{"unrelated name with a long suffix", "payments-worker-abcdefghijkl", "MyStack", "Queue", false},
		{"without stack or logical id", "Anything-abcdefghijkl", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isAutoName(tt.value, tt.stack, tt.logical); got != tt.want {
				t.Errorf("isAutoName(%q, %q, %q) = %v, want %v", tt.value, tt.stack, tt.logical, got, tt.want)
			}
		})
	}
}
