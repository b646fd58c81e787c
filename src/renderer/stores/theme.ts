// Theme store: dark or light, remembered across sessions, applied as a data attribute on <html>.
import { defineStore } from 'pinia';
import { ref, watchEffect } from 'vue';

export type Theme = 'dark' | 'light';

export const useThemeStore = defineStore('theme', () => {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem('splatlab-theme') : null;
  const theme = ref<Theme>(stored === 'light' ? 'light' : 'dark');
  watchEffect(() => {
    document.documentElement.dataset.theme = theme.value;
    localStorage.setItem('splatlab-theme', theme.value);
  });
  function toggle(): void {
    theme.value = theme.value === 'dark' ? 'light' : 'dark';
  }
  return { theme, toggle };
});
