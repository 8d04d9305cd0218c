// The classes an AI detection may look for (vendor listAIDetectionClasses: {name, category}).
export interface AiDetectionClass {
  name: string;
  category: string;
}

export const AI_DETECTION_CLASSES: readonly AiDetectionClass[] = [
  { name: 'control_box', category: 'electrical' },
  { name: 'electrical_panel', category: 'electrical' },
  { name: 'light_fixture', category: 'electrical' },
  { name: 'outlet', category: 'electrical' },
  { name: 'pipe', category: 'mechanical' },
  { name: 'valve', category: 'mechanical' },
  { name: 'pump', category: 'mechanical' },
  { name: 'duct', category: 'mechanical' },
  { name: 'fire_extinguisher', category: 'safety' },
  { name: 'sprinkler', category: 'safety' },
  { name: 'exit_sign', category: 'safety' },
  { name: 'door', category: 'architecture' },
  { name: 'window', category: 'architecture' },
  { name: 'column', category: 'structure' },
  { name: 'beam', category: 'structure' },
];

export const AI_DETECTION_CLASS_NAMES: ReadonlySet<string> = new Set(AI_DETECTION_CLASSES.map((c) => c.name));
