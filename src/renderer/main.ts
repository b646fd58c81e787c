// Renderer entry: mounts the Vue app with Pinia and the LabApi client for this runtime.
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { connectLab, LAB_KEY, LINK_KEY } from './api/client';
import { createLink } from './api/link';
import './styles/theme.css';

const app = createApp(App);
app.use(createPinia());
const link = createLink();
app.provide(LAB_KEY, connectLab(window, link));
app.provide(LINK_KEY, link);
app.mount('#app');
