export type DoctorSeed = {
  slug: string;
  name: string;
  specialty: string;
  description: string;
  website: string;
  instagram: string;
  /** Which demo portrait (doctor-NN.jpg). */
  photo: number;
};

// Fictional reviewers. Websites use the reserved example.com domain so no real practice is
// linked; Instagram mixes a handle and full links because the profile accepts both.
export const DOCTORS: DoctorSeed[] = [
  {
    slug: "sarah-mitchell",
    name: "Dr. Sarah Mitchell",
    specialty: "Plastic and Reconstructive Surgery",
    photo: 1,
    website: "https://sarah-mitchell.example.com",
    instagram: "@drsarahmitchell",
    description: [
      "Dr. Sarah Mitchell is a board-certified plastic surgeon with eighteen years of practice in facial and breast surgery. She trained in reconstructive microsurgery and now divides her time between aesthetic work and breast reconstruction after cancer.",
      "She reviews plastic surgery animations for anatomical accuracy and for the realism of the results it shows. Her rule is simple: if a patient would be surprised by something on the day of surgery, it belongs in the animation.",
      "Outside the operating room she teaches residents and speaks regularly about informed consent and realistic expectations.",
    ].join("\n\n"),
  },
  {
    slug: "james-okafor",
    name: "Dr. James Okafor",
    specialty: "Interventional Cardiology",
    photo: 2,
    website: "https://okafor-heart.example.com",
    instagram: "https://www.instagram.com/dr.okafor.heart/",
    description: [
      "Dr. James Okafor is an interventional cardiologist who has performed more than four thousand coronary procedures, most of them through the wrist. He leads a structural heart programme that offers transcatheter valve replacement.",
      "He joined Medanim because he found that a two-minute animation answered the questions his patients were too nervous to ask in clinic. He checks cardiology titles for the order of steps, the devices used and the recovery advice.",
    ].join("\n\n"),
  },
  {
    slug: "elena-rossi",
    name: "Dr. Elena Rossi",
    specialty: "Dermatology and Mohs Surgery",
    photo: 3,
    website: "https://elena-rossi-dermatology.example.com",
    instagram: "@dr.elenarossi",
    description: [
      "Dr. Elena Rossi is a dermatologist and fellowship-trained Mohs surgeon. Her clinic sees everything from teenage acne to complex skin cancers of the face.",
      "She reviews the dermatology library with a focus on what patients can see for themselves: how lesions change, when to seek help and what the skin looks like at each stage of healing.",
      "She also sits on a regional skin cancer prevention board and writes patient leaflets on sun protection.",
    ].join("\n\n"),
  },
  {
    slug: "michael-chen",
    name: "Dr. Michael Chen",
    specialty: "Orthopedic Surgery",
    photo: 4,
    website: "https://chen-orthopedics.example.com",
    instagram: "https://instagram.com/drmichaelchen_ortho",
    description: [
      "Dr. Michael Chen is an orthopedic surgeon specialising in hip and knee replacement and sports injuries. He is team physician for a professional football club and has a particular interest in fast-track recovery after joint surgery.",
      "For Medanim he reviews orthopedic and spine animations, making sure implants, instruments and rehabilitation milestones match current practice.",
    ].join("\n\n"),
  },
  {
    slug: "priya-raman",
    name: "Dr. Priya Raman",
    specialty: "Vascular Neurology",
    photo: 5,
    website: "https://priya-raman-neuro.example.com",
    instagram: "@drpriyaraman",
    description: [
      "Dr. Priya Raman is a stroke neurologist who runs a comprehensive stroke centre's acute service. Her team treats patients around the clock with clot-dissolving drugs and mechanical thrombectomy.",
      "She reviews neurology animations and insists that every stroke title teaches the warning signs, because minutes lost at home are the hardest to recover in hospital.",
      "Her research looks at how patients and families understand risk after a first stroke.",
    ].join("\n\n"),
  },
  {
    slug: "thomas-becker",
    name: "Dr. Thomas Becker",
    specialty: "Neurosurgery",
    photo: 6,
    website: "https://becker-neurosurgery.example.com",
    instagram: "https://www.instagram.com/dr.thomasbecker/",
    description: [
      "Dr. Thomas Becker is a neurosurgeon whose practice covers brain tumours, cerebral aneurysms, deep brain stimulation and complex spine surgery. He trained in Munich and Toronto.",
      "He reviews brain surgery, movement disorder and spine titles, and often uses them himself during consultations to show patients exactly where an operation will take place.",
    ].join("\n\n"),
  },
];
