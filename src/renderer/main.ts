// Renderer entry: mounts the Vue app with Pinia and the LabApi client for this runtime.
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { connectLab, LAB_KEY } from './api/client';
import './styles/theme.css';

const app = createApp(App);
app.use(createPinia());
app.provide(LAB_KEY, connectLab(window));
app.mount('#app');
