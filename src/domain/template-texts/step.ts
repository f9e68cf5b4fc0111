// The shape of a template's words in one language, apart from ../persona-templates.ts so that each
// language's file can use it without importing the module that imports them all.
import type { PhotoStepId } from '../personas.js';

export interface StepTexts {
  label: string;
  instructions: string;
}

export interface TemplateTexts {
  photo: { name: string; steps: Record<PhotoStepId, StepTexts> };
  video: { name: string; step: StepTexts };
}

export const step = (label: string, instructions: string): StepTexts => ({ label, instructions });
